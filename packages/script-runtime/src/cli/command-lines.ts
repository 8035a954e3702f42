import { ScriptRuntimeError } from "../errors.js";
import type { ScriptRuntime } from "../runtime/create-script-runtime.js";

/** The longest command line read, in bytes (as the HTTP endpoint's body). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const refusal = (message: string) => JSON.stringify({ ok: false, error: { code: "invalid_argument", message } });

/**
 * Answers one line of the command-line protocol: `{"command", "args"}` in,
 * `{"ok":true,"result":…}` or `{"ok":false,"error":{code,message}}` out.
 * A line that is not such JSON gets an `invalid_argument` answer.
 */
export async function answerLine(runtime: ScriptRuntime, line: string): Promise<string> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return refusal("each line must be one JSON object");
  }
  if (typeof request !== "object" || request === null || Array.isArray(request)) return refusal("each line must be one JSON object: {\"command\": …, \"args\": {…}}");
  const { command, args } = request as { command?: unknown; args?: unknown };
  if (typeof command !== "string") return refusal(`command: ${command === undefined ? "required argument missing" : "expected a string"}`);
  const outcome = await runtime.dispatch(command, args ?? {});
  try {
    return JSON.stringify(outcome);
  } catch (error) {
    // Whatever the scripts did, every command gets its answer line.
    return JSON.stringify({ ok: false, error: ScriptRuntimeError.from(error).toJSON() });
  }
}

/**
 * Reads command lines from `input` and writes one answer line per command
 * through `write`, in the order the commands came; blank lines are skipped.
 * A line over `maxLineBytes` is not kept in memory: it gets an
 * `invalid_argument` answer and reading goes on after its end. Resolves
 * when the input ends and every answer is written.
 */
export async function answerLines(
  runtime: ScriptRuntime,
  input: AsyncIterable<Uint8Array | string>,
  write: (answer: string) => void | Promise<void>,
  maxLineBytes = MAX_LINE_BYTES,
): Promise<void> {
  const decoder = new TextDecoder();
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let skipping = false;
  const answer = async (bytes: Uint8Array[]) => {
    const line = decoder.decode(Buffer.concat(bytes));
    if (line.trim() === "") return;
    await write(await answerLine(runtime, line));
  };
  const tooLong = () => write(refusal(`a command line is at most ${maxLineBytes} bytes`));
  for await (const piece of input) {
    let chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10)) {
      const tail = chunk.subarray(0, end);
      chunk = chunk.subarray(end + 1);
      if (skipping) {
        skipping = false;
        continue;
      }
      if (heldBytes + tail.length > maxLineBytes) await tooLong();
      else await answer([...held, tail]);
      held = [];
      heldBytes = 0;
    }
    if (skipping || chunk.length === 0) continue;
    if (heldBytes + chunk.length > maxLineBytes) {
      // Answered now, so a writer that never ends its line still hears why.
      await tooLong();
      held = [];
      heldBytes = 0;
      skipping = true;
      continue;
    }
    held.push(chunk.slice());
    heldBytes += chunk.length;
  }
  if (!skipping && heldBytes > 0) await answer(held);
}
