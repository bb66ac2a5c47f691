/** What the server answered an upload: its status and JSON body (null when it sent none). */
export interface SendResult {
  status: number;
  body: unknown;
}

/**
 * Posts one file as multipart `files` with the session cookie, reporting bytes sent. An
 * XMLHttpRequest, not fetch: only it reports an upload's progress. Resolves with the answer
 * whatever its status; rejects only when no answer came (the connection broke).
 */
export function sendFile(
  url: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<SendResult> {
  const form = new FormData();
  form.append("files", file, file.name);
  const xhr = new XMLHttpRequest();
  return new Promise((resolve, reject) => {
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    });
    xhr.addEventListener("load", () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the status says enough */
      }
      resolve({ status: xhr.status, body });
    });
    xhr.addEventListener("error", () => reject(new Error("the connection broke during the upload")));
    xhr.addEventListener("abort", () => reject(new Error("the upload was cancelled")));
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    xhr.send(form);
  });
}
