// Runs a MicroPython bench script on MicroPython's webassembly port: 32-bit, as a Pico is.
//
//   node bench/wasm32.mjs <package dir> <firmware dir> <fake machine dir> <script>
//
// The package is npm's @micropython/micropython-webassembly-pyscript (bench/__main__.py
// installs it into build/). The firmware and the fake machine are copied into the port's
// in-memory file system; the script runs with the firmware's directory as its current one and
// prints what it measured. This port has no select module and no os.urandom, which the Pico
// has built in: stand-ins are put in place before the script runs (they cost it nothing, as
// the script reads the heap only after importing what is built in on a Pico).
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [pkg, fwdir, fakedir, script] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(path.join(pkg, "micropython.mjs")).href);
const out = [];
const mp = await loadMicroPython({
  heapsize: 512 * 1024,
  stdout: (line) => out.push(line),
  stderr: (line) => out.push(line),
});

function copy(src, dst) {
  try { mp.FS.mkdir(dst); } catch (e) { /* it exists */ }
  for (const name of fs.readdirSync(src)) {
    const p = path.join(src, name);
    if (fs.statSync(p).isDirectory()) {
      if (name !== "__pycache__") copy(p, dst + "/" + name);
    } else {
      mp.FS.writeFile(dst + "/" + name, fs.readFileSync(p));
    }
  }
}
copy(fwdir, "/fw");
copy(fakedir, "/fake");
mp.FS.writeFile("/script.py", fs.readFileSync(script));
mp.runPython(`
import os, sys
class _Os:
    pass
_os = _Os()
for _n in dir(os):
    setattr(_os, _n, getattr(os, _n))
_os.urandom = lambda n: bytes(n)
sys.modules["os"] = _os
class _Poll:
    def register(self, *a):
        pass
    def poll(self, timeout=0):
        return []
class _Select:
    POLLIN = 1
    def poll(self):
        return _Poll()
sys.modules["select"] = _Select()
sys.path.append("/fake")
os.chdir("/fw")
`);
try {
  mp.runPython(`exec(open("/script.py").read(), {"__name__": "__main__"})`);
} finally {
  console.log(out.join("\n"));
}
