import { pythonEngineModule } from "./engine-module.js";
import { createMicroPython } from "./micropython-instance.js";
import { PYTHON_PRELUDE } from "./python-prelude.js";

const COMPILE_FUEL = 1 << 30;

/**
 * Compiles Python modules without running them (MicroPython's `compile`,
 * in a sandbox of its own). Answers the error of a module that does not
 * compile, with file and line (`SyntaxError: invalid syntax (ai.py, line
 * 3)`), or undefined.
 */
export async function createPythonCompileCheck(): Promise<(modulePath: string, source: string) => string | undefined> {
  const mp = createMicroPython(await pythonEngineModule(), {
    memoryLimitBytes: 64 * 1024 * 1024, heapBytes: 256 * 1024, pystackBytes: 16 * 1024,
    nowMs: () => 0, randomU32: () => 0, outputCapBytes: 0,
  });
  mp.fuel = COMPILE_FUEL;
  mp.exec(PYTHON_PRELUDE);
  const compile = mp.global("_compile");
  if (compile === null || typeof compile !== "object") throw new Error("the Python prelude has no _compile");
  return (modulePath, source) => {
    mp.fuel = COMPILE_FUEL;
    const answer = mp.call(compile.ref, [modulePath, source]);
    return typeof answer === "string" ? answer : undefined;
  };
}
