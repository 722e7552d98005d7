// The redeployed remote's visible change: the timetable's "Last updated" label reads REDEPLOY_LABEL instead.
module.exports = function visibleChange(source) {
  const label = process.env.REDEPLOY_LABEL;
  if (!label) throw new Error('REDEPLOY_LABEL is required');
  if (!source.includes('Last updated:')) throw new Error('The timetable\'s English catalogue no longer says "Last updated:"; update the redeploy test');
  // The catalogue is JSON: the label goes in as a JSON string's content.
  return source.replace('Last updated:', `${JSON.stringify(label).slice(1, -1)}:`);
};
