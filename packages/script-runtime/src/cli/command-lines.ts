import type { ScriptRuntime } from "../runtime/create-script-runtime.js";

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
    return JSON.stringify({ ok: false, error: { code: "invalid_argument", message: "each line must be one JSON object" } });
  }
  if (typeof request !== "object" || request === null || typeof (request as { command?: unknown }).command !== "string") {
    return JSON.stringify({ ok: false, error: { code: "invalid_argument", message: "command: required argument missing (a string)" } });
  }
  const { command, args } = request as { command: string; args?: unknown };
  return JSON.stringify(await runtime.dispatch(command, args ?? {}));
}
