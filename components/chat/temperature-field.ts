// A temperature typed into a text field: empty means "none" (the server's default).
// The server validates again; this only lets the form say what is wrong before sending.

export function temperatureText(value: number | null): string {
  return value === null ? "" : String(value);
}

export function parseTemperature(text: string): number | null | "invalid" {
  const trimmed = text.trim().replace(",", ".");
  if (trimmed === "") return null;
  if (!/^\d*\.?\d+$/.test(trimmed)) return "invalid";
  const value = Number(trimmed);
  return value >= 0 && value <= 2 ? value : "invalid";
}
