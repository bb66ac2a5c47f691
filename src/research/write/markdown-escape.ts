/**
 * Source text as Markdown that reads as the text itself. Threat: a page writing
 * "[Verify your account](https://evil.example)" had the extractive writer quote it into the
 * answer as a live link with any label (phishing), and "**", "`", "<…>" or a leading "#" took
 * over the answer's formatting. Every ASCII character that opens an inline construct is
 * escaped with a backslash (CommonMark, and the web app's renderer), and so is one that would
 * open a block at the start of the text. An address written out (https://…) stays as written:
 * it shows where it leads.
 */

const INLINE = /[\\`*_[\]<>~&]/g;
// A heading, quote, list item or thematic break where the paragraph starts.
const BLOCK = /^(\s*)(?:([#>+-])|(\d{1,9})([.)])(?=\s|$))/;

export function escapeMarkdown(text: string): string {
  const inline = text.replace(INLINE, "\\$&");
  return inline.replace(BLOCK, (_, space: string, mark?: string, digits?: string, dot?: string) =>
    mark ? `${space}\\${mark}` : `${space}${digits}\\${dot}`,
  );
}
