/**
 * Why a MicroPython instance stopped in the middle of a call. Each is thrown
 * by the host through the engine's frames (never a longjmp), so no Python
 * `except:` or `finally` runs, and the instance is discarded afterwards:
 * its interpreter was cut off mid-work.
 */
export class EngineTrap extends Error {
  override name = "EngineTrap";
  constructor(readonly reason: "out of fuel" | "out of memory" | "too deep" | "host unreachable" | "engine failure", message: string) {
    super(message);
  }
}
