/** Text that came from data (scenario and group names) made inert in markdown. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#!|~&]/g, (character) => `\\${character}`).replace(/\r?\n/g, ' ');
}
