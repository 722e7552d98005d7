// The redeployed remote's visible change: the timetable's "Last updated" label reads REDEPLOY_LABEL instead.
module.exports = function visibleChange(source) {
  const label = process.env.REDEPLOY_LABEL;
  if (!label) throw new Error('REDEPLOY_LABEL is required');
  if (!source.includes('Last updated:')) throw new Error('Timetable.tsx no longer says "Last updated:"; update the redeploy test');
  return source.replace('Last updated:', `${label}:`);
};
