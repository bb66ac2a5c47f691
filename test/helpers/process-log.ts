/**
 * Reads a child process's output as it comes: `until(text)` resolves once `text` has appeared
 * (the server logs "listening" once it accepts connections), so tests await that line instead
 * of polling; `rest()` collects everything up to the end of the stream.
 */
export function processLog(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const dec = new TextDecoder();
  let text = "";
  const more = async (): Promise<boolean> => {
    const { done, value } = await reader.read();
    if (!done) text += dec.decode(value, { stream: true });
    return !done;
  };
  return {
    async until(needle: string): Promise<string> {
      while (!text.includes(needle)) if (!(await more())) throw new Error(`output ended before "${needle}":\n${text}`);
      return text;
    },
    async rest(): Promise<string> {
      while (await more());
      return text;
    },
  };
}
