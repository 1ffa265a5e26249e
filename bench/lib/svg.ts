// A tiny line-chart writer (SVG, no dependencies) for docs/ charts.

export type Series = { name: string; color: string; points: [number, number][]; dashed?: boolean };
export type ChartOptions = {
  title: string;
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
  yMax?: number;
  logY?: boolean;
  /** Horizontal reference lines. */
  rules?: { y: number; label: string; color: string }[];
};

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function niceStep(range: number, ticks: number): number {
  const raw = range / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

function label(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toLocaleString("en-US", { maximumFractionDigits: 1 })}M`;
  if (Math.abs(value) >= 1e3) return `${(value / 1e3).toLocaleString("en-US", { maximumFractionDigits: 1 })}k`;
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

export function lineChart(series: Series[], options: ChartOptions): string {
  const width = options.width ?? 900;
  const height = options.height ?? 420;
  const margin = { left: 70, right: 20, top: 40, bottom: 80 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const xs = series.flatMap((s) => s.points.map(([x]) => x));
  const ys = series.flatMap((s) => s.points.map(([, y]) => y));
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const yMaxData = Math.max(...ys, ...(options.rules ?? []).map((r) => r.y));
  const yMax = options.yMax ?? yMaxData * 1.05;
  const logY = options.logY ?? false;
  const yMinLog = logY ? Math.max(1, Math.min(...ys.filter((y) => y > 0))) : 0;
  const sx = (x: number) => margin.left + ((x - xMin) / Math.max(1, xMax - xMin)) * plotW;
  const sy = (y: number) => {
    const clamped = Math.min(Math.max(y, logY ? yMinLog : 0), yMax);
    const t = logY ? (Math.log10(clamped) - Math.log10(yMinLog)) / (Math.log10(yMax) - Math.log10(yMinLog)) : clamped / yMax;
    return margin.top + plotH * (1 - t);
  };
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  parts.push(`<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(options.title)}</text>`);
  // Grid and axes.
  const yTicks: number[] = [];
  if (logY) {
    for (let p = Math.floor(Math.log10(yMinLog)); 10 ** p <= yMax; p++) if (10 ** p >= yMinLog) yTicks.push(10 ** p);
  } else {
    const step = niceStep(yMax, 6);
    for (let y = 0; y <= yMax + 1e-9; y += step) yTicks.push(y);
  }
  for (const y of yTicks) {
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${sy(y)}" y2="${sy(y)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${sy(y) + 4}" text-anchor="end" fill="#555">${label(y)}</text>`);
  }
  const xStep = niceStep(xMax - xMin, 10);
  for (let x = Math.ceil(xMin / xStep) * xStep; x <= xMax; x += xStep) {
    parts.push(`<line x1="${sx(x)}" x2="${sx(x)}" y1="${margin.top}" y2="${margin.top + plotH}" stroke="#f0f0f0"/>`);
    parts.push(`<text x="${sx(x)}" y="${margin.top + plotH + 16}" text-anchor="middle" fill="#555">${label(x)}</text>`);
  }
  parts.push(`<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  parts.push(`<text x="${margin.left + plotW / 2}" y="${height - 44}" text-anchor="middle">${esc(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(options.yLabel)}${logY ? " (log scale)" : ""}</text>`);
  for (const rule of options.rules ?? []) {
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${sy(rule.y)}" y2="${sy(rule.y)}" stroke="${rule.color}" stroke-dasharray="2 3"/>`);
    parts.push(`<text x="${width - margin.right - 4}" y="${sy(rule.y) - 4}" text-anchor="end" fill="${rule.color}">${esc(rule.label)}</text>`);
  }
  for (const s of series) {
    const d = s.points.map(([x, y], i) => `${i === 0 ? "M" : "L"}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join("");
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.4"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
  }
  // Legend under the plot.
  let lx = margin.left;
  for (const s of series) {
    parts.push(`<line x1="${lx}" x2="${lx + 24}" y1="${height - 18}" y2="${height - 18}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    parts.push(`<text x="${lx + 30}" y="${height - 14}">${esc(s.name)}</text>`);
    lx += 40 + s.name.length * 6.5;
  }
  parts.push("</svg>");
  return parts.join("\n");
}
