/**
 * The Scripts panel as a web page: loaded scripts with their state, fuel
 * against budget, faults and last fault, the log, pause / resume / unload /
 * reload buttons, the file list, a source-mode code editor whose save
 * hot-reloads the script, and the project check. Every button calls a
 * command through `POST /commands/<command>`.
 */
export const PANEL_PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Scripts</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; color: #1d2330; background: #f4f5f7; }
  header { display: flex; gap: 12px; align-items: center; padding: 10px 16px; background: #1d2330; color: #fff; }
  header h1 { font-size: 16px; margin: 0; flex: 1; }
  main { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; padding: 12px 16px; }
  section { background: #fff; border: 1px solid #d9dce3; border-radius: 6px; padding: 10px 12px; min-width: 0; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #5a6273; margin: 0 0 8px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #eceef2; vertical-align: top; }
  td.fault { color: #a32020; font-size: 12px; }
  .running { color: #1d7a35; } .paused { color: #9a6a00; }
  button { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid #b9bfcc; border-radius: 4px; background: #fff; cursor: pointer; }
  button:hover { background: #eef1f6; }
  pre { font: 12px ui-monospace, monospace; white-space: pre-wrap; margin: 0; max-height: 220px; overflow: auto; background: #f8f9fb; padding: 6px; }
  textarea { width: 100%; box-sizing: border-box; height: 260px; font: 13px ui-monospace, monospace; tab-size: 2; border: 1px solid #b9bfcc; border-radius: 4px; padding: 6px; }
  ul { list-style: none; padding: 0; margin: 0; } li { display: flex; gap: 8px; align-items: center; padding: 3px 0; } li span.name { flex: 1; }
  .wide { grid-column: 1 / -1; }
  #hidden { padding: 16px; }
</style>
</head>
<body>
<header><h1>Scripts</h1><span id="clock"></span><label><input type="checkbox" id="live-reload"> live reload</label><button id="check">Check</button><button id="toggle-panel">Hide panel</button></header>
<div id="hidden" hidden>The Scripts panel is hidden. <button id="show-panel">Show</button></div>
<main id="panel">
  <section class="wide"><h2>Loaded scripts</h2>
    <table id="scripts"><thead><tr><th>Name</th><th>State</th><th>Fuel used / budget</th><th>Faults</th><th>Last fault</th><th></th></tr></thead><tbody></tbody></table>
  </section>
  <section><h2>Files</h2><ul id="files"></ul></section>
  <section><h2>Editor <span id="editing"></span></h2>
    <textarea id="source" spellcheck="false" placeholder="Open a file to edit it"></textarea>
    <div><button id="save" disabled>Save</button> <span id="saved"></span></div>
  </section>
  <section><h2>Log</h2><pre id="log"></pre></section>
  <section><h2>Check</h2><pre id="report">Press Check to compile, validate and test the project.</pre></section>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
async function command(name, args) {
  const res = await fetch("/commands/" + name, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(args || {}) });
  const outcome = await res.json();
  if (!outcome.ok) throw new Error(outcome.error.code + ": " + outcome.error.message);
  return outcome.result;
}
const el = (tag, props, children) => { const e = document.createElement(tag); Object.assign(e, props || {}); for (const c of children || []) e.append(c); return e; };
const button = (label, onClick, testid) => { const b = el("button", { textContent: label }); b.dataset.testid = testid; b.onclick = () => onClick().then(refresh).catch(report); return b; };
const report = (e) => { $("saved").textContent = String(e.message || e); };
let editing = null;

async function refresh() {
  const [list, files, state] = await Promise.all([command("script.list"), command("editor.scripts.files"), command("editor.scripts.state")]);
  $("panel").hidden = !state.open; $("hidden").hidden = state.open;
  $("live-reload").checked = state.live_reload;
  $("clock").textContent = "tick " + list.tick + " · " + (list.sim_ms / 1000).toFixed(1) + " s";
  // Rows and buttons are updated in place, so a click never lands on a row being replaced.
  const body = $("scripts").tBodies[0];
  const names = list.scripts.map((s) => s.name);
  for (const old of [...body.rows]) if (!names.includes(old.dataset.script)) old.remove();
  list.scripts.forEach((s, i) => {
    let row = [...body.rows].find((r) => r.dataset.script === s.name);
    if (!row) {
      row = el("tr", {}, [el("td", { textContent: s.name }), el("td"), el("td"), el("td"), el("td", { className: "fault" }), el("td")]);
      row.dataset.script = s.name;
    }
    if (body.rows[i] !== row) body.insertBefore(row, body.rows[i] || null);
    const cells = row.cells;
    const state = s.paused ? "paused" : "running";
    cells[2].textContent = s.fuel_used.toLocaleString("en") + " / " + s.fuel_per_tick.toLocaleString("en");
    cells[3].textContent = String(s.faults);
    cells[4].textContent = s.last_fault || "";
    if (cells[1].textContent !== state) {
      cells[1].textContent = state;
      cells[1].className = state;
      cells[5].replaceChildren(
        s.paused ? button("Resume", () => command("script.resume", { name: s.name }), "resume-" + s.name) : button("Pause", () => command("script.pause", { name: s.name }), "pause-" + s.name),
        " ", button("Unload", () => command("script.unload", { name: s.name }), "unload-" + s.name),
        " ", button("Reload", () => command("editor.scripts.load", { name: s.name }), "reload-" + s.name),
      );
    }
  });
  const fileKey = JSON.stringify(files);
  if ($("files").dataset.key !== fileKey) {
    $("files").dataset.key = fileKey;
    $("files").replaceChildren(...files.map((f) => {
      const li = el("li", {}, [el("span", { className: "name", textContent: f.path + (f.running ? " (running)" : "") }),
        button("Edit", () => open(f.name), "edit-" + f.name),
        button("Load", () => command("editor.scripts.load", { name: f.name }), "load-" + f.name)]);
      li.dataset.file = f.name;
      return li;
    }));
  }
  const log = $("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.textContent = list.log.join("\n");
  if (atEnd) log.scrollTop = log.scrollHeight;
}

async function open(name) {
  const opened = await command("editor.scripts.edit", { name });
  const file = await command("editor.scripts.source", { name });
  editing = name;
  $("editing").textContent = "· " + opened.opened;
  $("source").value = file.source;
  $("save").disabled = false;
  $("saved").textContent = "";
}

$("save").onclick = () => command("editor.scripts.save", { name: editing, source: $("source").value })
  .then((r) => { $("saved").textContent = "saved " + r.saved; }).then(refresh).catch(report);
$("source").addEventListener("keydown", (e) => {
  if (e.key === "Tab") { e.preventDefault(); const t = e.target; const at = t.selectionStart; t.setRangeText("  ", at, t.selectionEnd, "end"); }
  if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); $("save").click(); }
});
$("check").onclick = () => command("editor.scripts.check").then((r) => { $("report").textContent = (r.ok ? "ok\n" : "problems\n") + r.report.join("\n"); }).then(refresh).catch(report);
$("live-reload").onchange = (e) => command("editor.scripts.live_reload", { on: e.target.checked }).then(refresh).catch(report);
$("toggle-panel").onclick = () => command("editor.scripts.panel", { open: false }).then(refresh).catch(report);
$("show-panel").onclick = () => command("editor.scripts.panel", { open: true }).then(refresh).catch(report);
refresh().catch(report);
setInterval(() => refresh().catch(report), 500);
</script>
</body>
</html>
`;
