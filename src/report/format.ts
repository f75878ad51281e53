/** Number formatting shared by the text and markdown reports. */

/** Up to 4 decimals for values near 1, 4 significant digits otherwise; no trailing noise. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  const text = magnitude >= 100 ? value.toFixed(1) : magnitude >= 0.001 ? value.toFixed(4) : value.toPrecision(3);
  return text.includes('.') && !text.includes('e') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

export function formatInterval(ci: [number, number] | null): string {
  return ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '-';
}
