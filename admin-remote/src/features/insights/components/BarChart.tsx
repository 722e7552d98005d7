// A bar chart on chart.js with only the parts it uses registered (the page's lazy chunk carries no more of it).
import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type Plugin } from 'chart.js';
import { useTheme } from 'shared-ui';
import type { ChartTable } from '../utils/tables';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Each bar's value written at its end: colour is never the only way to read a bar. */
const valueLabels: Plugin<'bar'> = {
  id: 'insightsValueLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillStyle = '#1f2933';
    ctx.textAlign = 'center';
    chart.data.datasets.forEach((dataset, i) => {
      const meta = chart.getDatasetMeta(i);
      if (meta.hidden) return;
      meta.data.forEach((bar, j) => {
        const value = dataset.data[j];
        if (typeof value === 'number') ctx.fillText(String(Math.round(value * 10) / 10), bar.x, bar.y - 4);
      });
    });
    ctx.restore();
  },
};

/** Bar fills with at least 3:1 contrast on white, told apart by their legend names and written values too. */
const FILLS = ['#1d5fa8', '#8a5300', '#146c2e'];

export function BarChart({ table, label }: { table: ChartTable; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const theme = useTheme();
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return undefined;
    const chart = new Chart(context, {
      type: 'bar',
      data: {
        labels: table.labels,
        datasets: table.series.map((series, i) => ({
          label: series.label,
          data: series.values,
          backgroundColor: FILLS[i % FILLS.length],
          borderColor: theme.colors.text,
          borderWidth: 1,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        layout: { padding: { top: 16 } },
        plugins: { legend: { display: table.series.length > 1, labels: { color: theme.colors.text } } },
        scales: {
          x: { ticks: { color: theme.colors.text } },
          y: {
            beginAtZero: true,
            ...(table.unit === 'percent' ? { max: 100 } : {}),
            ticks: {
              color: theme.colors.text,
              precision: 0,
              callback: (value) => (table.unit === 'percent' ? `${value}%` : table.unit === 'ringgit' ? `RM ${value}` : String(value)),
            },
          },
        },
      },
      plugins: [valueLabels],
    });
    return () => chart.destroy();
  }, [table, theme]);
  return (
    <div style={{ position: 'relative', height: '260px', minWidth: 0 }}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
