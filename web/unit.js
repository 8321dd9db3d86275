// The page as the unit's body: the firmware (firmware/, unchanged) runs in MicroPython's
// WebAssembly port; this file turns taps into the brain's events and draws its outputs back.
// No rule lives here: what a key does, what the display shows, when a light flashes, is the
// firmware's (web/body.py reads it out as one view per input). docs/web.md has the why.
//
// URL options: ?game=NAME (a separate kept game; GAME_NAME says what a name is), ?seed=N
// (reproducible deal timer, B13), ?clock=virtual (time moves only on ADVANCE/HOLD, as
// --virtual-clock), ?profile=world|classic|francs (B15), ?pot=on|off (the Free Parking pot,
// B22, as --pot), ?maintenance (as --maintenance), ?lang=en|fr (else the one chosen last,
// else the browser's). Those that change a game kept here wait for the banker (askFirst).
// The port's module (micropython.mjs) is fetched with the rest, its bytes counted for the
// progress bar, and imported from that copy: see start().

import { Feed } from "./feed.js";

const params = new URLSearchParams(location.search);
// A game's name makes its keys, its lock and its channel: a small alphabet, so that no name's
// keys begin with another's (those of `G/` and `G/x` are under `G`'s) and no two names share
// a game. Any other is refused before anything is read or kept (refuseGame).
const GAME_NAME = /^[a-z0-9-]{1,32}$/;
const GAME = params.has("game") ? params.get("game") : "default";
const PREFIX = "bank-unit/" + GAME + "/";
const STATE = "/state";
const KEY_ROWS = [["7", "8", "9", "C"], ["4", "5", "6", "M"], ["1", "2", "3", "K"],
  ["0", ".", "DEAL"], ["+", "-"]];
const KEY_LABEL = { "-": "\u2212", DEAL: "DEAL" };
const KEYBOARD = { ".": ".", ",": ".", m: "M", k: "K", c: "C", d: "DEAL", " ": "DEAL",
  "+": "+", "=": "+", "-": "-", _: "-" };
for (const d of "0123456789") KEYBOARD[d] = d;
const TONE_SHOW_MS = 450;

const $ = (id) => document.getElementById(id);
let mp = null;
let body = null;
let TONES = {};
let view = null;
let timer = null;
let firstDisplay = null;
let TEXTS = {};  // the page's own words in the language spoken (firmware/desktop/words.py)
let feed = null;  // the table view's feed, where a simulator serves the page (web/feed.js)
const LANG_KEY = "bank-unit/lang";

// -- the game kept: each file the store finished writing, copied into localStorage ----------

function bytesToStr(u8) {
  let s = "";
  for (let i = 0; i < u8.length; i += 8192) {
    s += String.fromCharCode.apply(null, u8.subarray(i, i + 8192));
  }
  return s;
}

function strToBytes(s) {
  const u8 = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i) & 255;
  return u8;
}

// Called from Python (web/body.py, WebFS.done) before the store's write returns: true once
// the file is kept; false (the store then reports a failed write, as a full flash) otherwise.
globalThis.bankPersist = (path) => {
  if (!mine()) return false;  // another tab runs the game now: this one writes nothing more
  try {
    localStorage.setItem(PREFIX + path.split("/").pop(), bytesToStr(mp.FS.readFile(path)));
    stamp();
    return true;
  } catch (e) {
    console.warn("bank unit: the game could not be kept: " + e);
    // The in-memory file goes back to what is kept, so the firmware reads only that.
    const kept = localStorage.getItem(PREFIX + path.split("/").pop());
    if (kept === null) mp.FS.unlink(path); else mp.FS.writeFile(path, strToBytes(kept));
    return false;
  }
};
globalThis.bankForget = (path) => {
  if (!mine()) return false;
  try {
    localStorage.removeItem(PREFIX + path.split("/").pop());
    stamp();
    return true;
  } catch (e) {
    return false;
  }
};

// The game's own files, exactly: the store keeps them in one folder, so a key with more after
// the game's prefix (`bank-unit/G//bank.b`, `bank-unit/G/x/bank.a`, kept by a page that took
// any name) is none of this game's files and is left alone.
function restoreState() {
  try { mp.FS.mkdir(STATE); } catch (e) { /* there already */ }
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const name = key.startsWith(PREFIX) ? key.slice(PREFIX.length) : "";
    if (name && !name.includes("/") && name !== "." && name !== "..") {
      mp.FS.writeFile(STATE + "/" + name, strToBytes(localStorage.getItem(key)));
    }
  }
}

// -- one tab runs the game --------------------------------------------------------------------
// Two tabs each running the same kept game would each boot from the same files and each write
// over the other's: a payment acknowledged in one would be gone at the next load. So one tab
// (or window) of the browser holds the game's Web Lock and runs it; another one opened on the
// same game waits, says so, and offers to take it over. Taking over asks the running tab
// (a BroadcastChannel message) to stop: it stops taking input and writing, says why, tells its
// last write's number (the stamp) and lets the lock go; the new tab boots from the kept files
// once they show that stamp. A tab closed or killed lets its lock go with it: a waiting tab
// then starts by itself. A running tab that does not answer (frozen in a real-time HOLD) has
// its lock taken after TAKE_OVER_MS; it stops when it wakes (the lock's loss), and in any case
// before its next write, which finds the kept files' number moved on (mine()).
//
// A browser gives Web Locks to secure contexts only, and a page served over plain http to a
// LAN address (`--lan`, on a phone) is not one. There the tabs ask one another over the same
// channel instead: a tab starting asks who runs the game; the running one answers; with no
// answer within ASK_MS the tab runs it, and a waiting tab asks again every WAIT_MS, so it
// starts by itself once the other is gone. (Two tabs started within ASK_MS of each other could
// both run: the Web Lock has no such gap.)

const LOCK = "bank-unit/" + GAME;
const STAMP = "bank-unit-stamp/" + GAME;  // not under PREFIX: not one of the store's files
const TAKE_OVER_MS = 3000;
const STAMP_WAIT_MS = 2000;
const ASK_MS = 300;
const WAIT_MS = 1000;
const LOCKS = !!(navigator.locks && navigator.locks.request);
const channel = "BroadcastChannel" in globalThis ? new BroadcastChannel(LOCK) : null;
let stamped = 0;
let holding = false;
let stopped = false;
let letGo = null;
let handedStamp = null;
let queued = null;
let granted = null;
let asking = false;
let answered = false;
// A reload of the tab that ran the game runs it again, as a reload does: a tab that waited on
// the same game, and took it as the old page let go, is asked to let it go back. Not when the
// tab running it now was chosen by a take-over since (TAKEN: "Play here instead", the banker's
// choice), and not in a tab that never ran it (a duplicated tab carries the mark: any load but
// a reload drops it).
const RAN = "bank-ran";  // the tab's sessionStorage: the game it ran last, until it stopped
const TAKEN = "bank-unit-taken/" + GAME;  // localStorage: its runner took it over
const RELOAD = (performance.getEntriesByType("navigation")[0] || {}).type === "reload"
  && mark("sessionStorage", RAN) === GAME;
if (!RELOAD) mark("sessionStorage", RAN, null);

function reclaims() {
  return RELOAD && mark("localStorage", TAKEN) === null;
}

// A mark in the browser's storage: value, or null to drop it, or the one kept. A browser that
// blocks site data throws on its storage, and keeps no game either: no mark then.
function mark(store, key, value) {
  try {
    const st = globalThis[store];
    if (value === undefined) return st.getItem(key);
    if (value === null) st.removeItem(key);
    else st.setItem(key, value);
  } catch (e) { /* none kept */ }
  return null;
}

function stamp() {
  try {
    localStorage.setItem(STAMP, String(stamped + 1));
    stamped += 1;
  } catch (e) { /* a full storage: the file is kept, its number not; the next tab takes it */ }
}

// Whether this tab still runs the game, looked at before each write: a kept number that is
// not this tab's last means another tab has written since (it took the game while this one
// was frozen, or in the background on a phone): this one stops before it writes over that.
function mine() {
  if (!stopped && stamped > 0 && mark("localStorage", STAMP) === null) keepAgain();
  if (!stopped && keptStamp() !== stamped) stop("taken");
  return !stopped;
}

// The browser's storage cleared under a running game (its site data deleted, or evicted): no
// other tab took it (another's write moves the number on, it never drops it), and this tab
// still holds every file the store finished. They are kept again, with their number, before
// the write that found them gone; a reload would otherwise start a new game, every balance
// lost. If the browser takes none of it, the tab stops, as when another took the game.
function keepAgain() {
  try {
    for (const name of mp.FS.readdir(STATE)) {
      if (name === "." || name === "..") continue;
      localStorage.setItem(PREFIX + name, bytesToStr(mp.FS.readFile(STATE + "/" + name)));
    }
    localStorage.setItem(STAMP, String(stamped));
    console.warn("bank unit: this browser's copy of the game was deleted; kept again");
  } catch (e) { /* full, or blocked: the tab stops below */ }
}

function keptStamp() {
  const n = Number(localStorage.getItem(STAMP) || 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;  // a damaged number stands for none
}

// Resolves once this tab holds the game; meanwhile, after a moment (a reload's old page lets go
// in that time), the page says that another tab has it, or, reloaded, asks for it back.
function holdGame() {
  if (!LOCKS && !channel) return Promise.resolve();
  return new Promise((resolve) => {
    granted = resolve;
    if (LOCKS) {
      const saying = setTimeout(() => {
        if (holding || asking) return;
        if (reclaims()) takeOver();
        else notice("waiting");
      }, 700);
      queued = new AbortController();
      ask({ signal: queued.signal }).then(() => clearTimeout(saying));
    } else {
      whoRuns();
    }
    if (mark("sessionStorage", "bank-take-over") === GAME) {
      mark("sessionStorage", "bank-take-over", null);
      takeOver();
    }
  });
}

function ask(opts) {
  let got;
  const had = new Promise((r) => { got = r; });
  navigator.locks.request(LOCK, opts, () => {
    holding = true;
    got();
    return new Promise((release) => {
      letGo = release;
      onGranted();
    });
  }).catch(() => {
    // Taken by a tab that did not get an answer, or a wait given up for that taking.
    if (holding) { holding = false; stop("taken"); }
  });
  return had;
}

function whoRuns() {
  if (holding || stopped || asking) return;
  answered = false;
  channel.postMessage({ type: "who" });
  setTimeout(() => {
    if (holding || stopped || asking) return;
    if (!answered) {
      claim();
    } else if (reclaims()) {
      takeOver();
    } else {
      notice("waiting");
      setTimeout(whoRuns, WAIT_MS);
    }
  }, ASK_MS);
}

function claim() {
  holding = true;
  channel.postMessage({ type: "claimed" });  // a tab that did not answer in time stops
  onGranted();
}

async function onGranted() {
  mark("sessionStorage", RAN, GAME);
  if (!asking) mark("localStorage", TAKEN, null);  // not taken over: a reloaded runner's again
  if (handedStamp !== null) {
    // The tab that let go wrote its last file before it said so: wait until it shows here.
    const end = performance.now() + STAMP_WAIT_MS;
    while (keptStamp() < handedStamp && performance.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  hideNotice();
  const go = granted;
  granted = null;
  if (go) go();
}

function takeOver() {
  if (holding) return;
  if (stopped) {  // this tab ran the game before: a fresh start, then ask for it
    mark("sessionStorage", "bank-take-over", GAME);
    location.reload();
    return;
  }
  asking = true;
  mark("localStorage", TAKEN, "1");  // the banker's choice: a reloaded tab leaves it be
  notice("waiting");
  $("notice-text").textContent = say("page.notice.asking");
  $("take-over").hidden = true;
  if (channel) channel.postMessage({ type: "let-go" });
  setTimeout(() => {
    if (holding || stopped) return;
    if (LOCKS) {
      queued.abort();
      ask({ steal: true });
    } else {
      claim();
    }
  }, TAKE_OVER_MS);
}

if (channel) {
  channel.onmessage = (e) => {
    const m = e.data || {};
    if (m.type === "let-go" && holding && !stopped) {
      stop("moved");
      holding = false;
      channel.postMessage({ type: "released", stamp: stamped });
      if (letGo) letGo();
    } else if (m.type === "released") {
      handedStamp = m.stamp;
      if (!LOCKS && asking && !holding) claim();
    } else if (m.type === "who" && holding && !stopped) {
      channel.postMessage({ type: "mine" });
    } else if (m.type === "mine") {
      answered = true;
    } else if (m.type === "claimed" && holding && !stopped) {
      holding = false;
      stop("taken");
    }
  };
}

// A sentence of the page's own (firmware/desktop/words.py's page.*, in TEXTS: words.json
// before the unit runs, the unit's set_lang after), its {fields} filled.
function say(id, fields) {
  let text = TEXTS[id] || id;
  for (const k of Object.keys(fields || {})) text = text.split("{" + k + "}").join(fields[k]);
  return text;
}

// A name out of GAME_NAME: said, and nothing started (no lock, no key read or written).
let refused = null;  // why this page runs no game (refuseGame), or null

// A name as the address had it, said back: its control and direction characters as \uXXXX,
// lest a refused ?game= write them into the sentence (a NUL, a right-to-left override).
function shortened(text) {
  const seen = text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  return seen.length > 40 ? seen.slice(0, 40) + "\u2026" : seen;
}

function refuseGame() {
  return refuse(say("page.bad-game", { name: shortened(GAME) }), "bad-game");
}

// A URL option the page cannot start with (a bad ?game=, ?seed= or ?profile=): said in words
// where the notices are, and nothing started.
function refuse(text, why) {
  refused = text;
  $("loading").remove();
  $("notice").dataset.why = why;
  $("notice-text").textContent = refused;
  $("take-over").hidden = true;
  $("notice").hidden = false;
  document.body.classList.add("stopped");
  const ready = Promise.reject(new Error(refused));
  ready.catch(() => {});  // said on the page: no unhandled rejection in the console
  return ready;
}

function notice(why) {
  $("notice").dataset.why = why;
  $("notice-text").textContent = say("page.notice." + why);
  $("take-over").hidden = false;
  $("notice").hidden = false;
}

// Options in the address that would change the game kept here (a new edition's game, the pot,
// maintenance mode): any web page can link here with them, so they wait for the banker's tap.
// Taken, the unit starts again with them, as a unit switched on with them; left, the address
// loses them, so a reload does not ask again.
function askFirst(asks, boot) {
  const what = asks.map(([option, value]) => say(option === "pot" ? "page.ask.pot-" + value
    : "page.ask." + option, { profile: value }));
  $("ask-text").textContent = say("page.ask", { what: what.join("; ") });
  $("ask").hidden = false;
  $("table").inert = true;  // the unit and the panel wait for the answer, by key as by tap
  $("ask-change").focus();
  const done = () => {
    $("ask").hidden = true;
    $("table").inert = false;
  };
  $("ask-change").onclick = () => {
    done();
    if (stopped) return;  // another tab runs the game now
    boot(false);  // a unit of its own: its table feed tells the whole game (body.table_lines)
    act("view");
    seatCards();  // switched on again with the cards where they were
    if (feed) feed.push();
  };
  $("ask-keep").onclick = () => {
    done();
    const url = new URL(location.href);
    for (const [option] of asks) url.searchParams.delete(option);
    history.replaceState(history.state, "", url);
  };
}

function hideNotice() {
  $("notice").hidden = true;
  delete $("notice").dataset.why;
}

function stop(why) {
  stopped = true;
  mark("sessionStorage", RAN, null);
  $("ask").hidden = true;  // a link's question is this tab's no more
  $("table").inert = false;
  if (feed) feed.stop();  // the tab that runs the game now feeds the table
  clearTimeout(timer);
  timer = null;
  keepAwake(false);
  document.body.classList.add("stopped");
  notice(why);
}

// -- the display: five seven-segment cells, the k and M marks ------------------------------

function hSeg(x, y, len, t) {
  const h = t / 2;
  return [[x, y], [x + h, y - h], [x + len - h, y - h], [x + len, y], [x + len - h, y + h],
    [x + h, y + h]];
}
function vSeg(x, y, len, t) {
  const h = t / 2;
  return [[x, y], [x + h, y + h], [x + h, y + len - h], [x, y + len], [x - h, y + len - h],
    [x - h, y + h]];
}
// bit 0 = a ... bit 6 = g (firmware/segments.py), then the point.
const SEGS = [hSeg(7, 6, 34, 7), vSeg(42, 7, 35, 7), vSeg(42, 44, 35, 7), hSeg(7, 80, 34, 7),
  vSeg(6, 44, 35, 7), vSeg(6, 7, 35, 7), hSeg(7, 43, 34, 7)];

function buildCells() {
  const ns = "http://www.w3.org/2000/svg";
  const cells = [];
  for (let c = 0; c < 5; c++) {
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "-2 0 58 88");
    svg.setAttribute("class", "cell");
    const parts = [];
    for (const pts of SEGS) {
      const p = document.createElementNS(ns, "polygon");
      p.setAttribute("points", pts.map((q) => q.join(",")).join(" "));
      svg.appendChild(p);
      parts.push(p);
    }
    const dp = document.createElementNS(ns, "circle");
    dp.setAttribute("cx", 51); dp.setAttribute("cy", 81); dp.setAttribute("r", 4);
    svg.appendChild(dp);
    parts.push(dp);
    $("cells").appendChild(svg);
    cells.push(parts);
  }
  return cells;
}
let CELLS = null;

// -- tones: the firmware's tone table, played with Web Audio at the unit's volume (B18) -------

let audio = null;
let audioEnd = 0;
let unheard = null;  // [name, volume, when]: the last tone due before the browser allowed sound
const heard = [];
const LATE_TONE_MS = 1000;  // a tone due longer before the sound starts is not played late

// A browser starts sound only on a user activation: a key down, a mouse's pointerdown, but for a
// finger only the pointerup (or click) that ends the tap. A context made or resumed at any other
// time stays suspended, with a warning in the console, so none is made until then; and the tone
// of the key whose tap allowed it (pressed at pointerdown) is played as the finger lifts.
function wakeAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || (audio && audio.state === "running")) return;
  if (navigator.userActivation && !navigator.userActivation.isActive) return;
  if (!audio) audio = new Ctx();
  if (audio.state !== "running") audio.resume().catch(() => { /* the next tap again */ });
  const late = unheard;
  unheard = null;
  if (late && performance.now() - late[2] < LATE_TONE_MS) sound(late[0], late[1]);
}

for (const ev of ["pointerdown", "pointerup", "touchend", "click", "keydown"]) {
  window.addEventListener(ev, wakeAudio, true);  // before the key or card it lands on acts
}

function play(name, volume) {
  heard.push(name);
  if (!audio) {
    unheard = [name, volume, performance.now()];
    return;
  }
  sound(name, volume);
}

function sound(name, volume) {
  if (volume <= 0 || !TONES[name]) return;
  const notes = TONES[name];
  const gain = audio.createGain();
  gain.gain.value = volume >= 2 ? 0.16 : 0.05;
  gain.connect(audio.destination);
  let t = Math.max(audio.currentTime + 0.005, audioEnd);
  for (let i = 0; i < notes.length; i += 2) {
    const secs = notes[i + 1] / 1000;
    if (notes[i] > 0) {
      const osc = audio.createOscillator();
      osc.type = "square";
      osc.frequency.value = notes[i];
      osc.connect(gain);
      osc.start(t);
      osc.stop(t + secs);
    }
    t += secs;
  }
  audioEnd = t;
}

// -- the screen kept awake while the unit is on ------------------------------------------

let wakeLock = null;
async function keepAwake(on) {
  if (!("wakeLock" in navigator)) return;
  if (on && !wakeLock && document.visibilityState === "visible") {
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } catch (e) { /* refused (no gesture yet, battery saver): the screen may sleep */ }
  } else if (!on && wakeLock) {
    wakeLock.release();
    wakeLock = null;
  }
}

// -- the one loop: an input or a due timer, one call into the brain, one redraw -------------
// Everything the unit does passes through act(): an input is an event on the board that
// firmware/app.py's App loop takes at its next step (web/body.py runs it as desktop's SimApp),
// a due timer one more step; the view says how long until the next one (SimApp.wait).

function act(op, a = null, b = null) {
  if (stopped || !body) return;  // another tab runs the game, or it has not started here
  const json = body.call(op, a, b);
  show(JSON.parse(json));
}

function show(v) {
  const before = view;
  view = v;
  draw(before, v);
  if (!before || before.slots.join() !== v.slots.join()) keepSlots(v);
  for (const name of v.tones) play(name, v.volume);
  if (v.tones.length) showTone(v.tones[v.tones.length - 1]);
  for (const line of v.events) consoleOut(line);
  clearTimeout(timer);
  timer = v.wait >= 0 ? setTimeout(() => act("tick"), v.wait + 1) : null;
  keepAwake(v.power);
  if (feed) feed.push();
}

let toneTimer = null;
function showTone(name) {
  $("tone").textContent = "\u266a " + (TEXTS["tone." + name] || name);
  clearTimeout(toneTimer);
  const ms = Math.max(TONE_SHOW_MS, (TONES[name] || []).filter((_, i) => i % 2).reduce((s, x) => s + x, 0));
  toneTimer = setTimeout(() => { $("tone").textContent = ""; }, ms);
}

function draw(old, v) {
  const cells = v.cells.length ? v.cells : [0, 0, 0, 0, 0];
  $("lcd").classList.toggle("off", !v.power);
  for (let c = 0; c < 5; c++) {
    const code = cells[c];
    CELLS[c].forEach((p, bit) => p.classList.toggle("on", !!(code & (1 << bit))));
  }
  const marks = (v.M ? " M" : "") + (v.k ? " k" : "");
  $("lcd").setAttribute("aria-label", say("page.label.display",
    { text: v.power ? v.text + marks : say("page.label.off") }));
  $("lcd").dataset.text = v.power ? v.text : "";
  $("mark-M").classList.toggle("on", !!v.M);
  $("mark-k").classList.toggle("on", !!v.k);
  $("light-red").classList.toggle("on", v.red);
  $("light-green").classList.toggle("on", v.green);
  $("deal").textContent = v.deal === "idle" ? "" : TEXTS["deal." + v.deal] || v.deal;
  $("said").textContent = v.said;  // a refusal in words, the window's sentence (web/body.py)
  // The cues the window draws: a held C or DEAL fills a bar along its key (the 3 s holds, B11),
  // maintenance mode is labelled on the unit's top edge, the dark glass says what wakes it.
  for (const k of ["C", "DEAL"]) {
    const bar = $("key-" + k).querySelector(".hold-bar");
    const on = !!v.hold && v.hold[0] === k;
    bar.hidden = !on;
    bar.style.width = on ? `calc((100% - 12px) * ${v.hold[1]})` : "0";
  }
  $("said").classList.toggle("holding", !!v.hold);
  if (v.hold) $("said").style.setProperty("--hold", v.hold[1] * 100 + "%");
  $("maint").hidden = !v.maintenance;
  $("maint").textContent = TEXTS["win.maintenance"];
  $("glass-note").textContent = v.power ? "" : TEXTS["win.off-glass"];
  $("games-said").textContent = v.panel_said;
  // The pot's switch shows what the unit keeps: a refused tap leaves it as it was (B22).
  $("pot").checked = v.pot_on;
  $("pot-amount").textContent = v.pot || "";
  $("pot-said").textContent = v.pot_said;
  $("sound").setAttribute("class", "sound v" + v.volume);
  $("sound").setAttribute("aria-label", say("page.label.volume", { n: v.volume }));
  for (const [i, s] of ["L", "R"].entries()) {
    const card = v.slots[i];
    if (!old || old.slots[i] !== card) placeCards(v);
  }
  if (!firstDisplay && v.power) firstDisplay = performance.now();  // from navigation start
  if (!old || old.seq !== v.seq || old.log.join() !== v.log.join() ||
      old.balances.join() !== v.balances.join() ||
      JSON.stringify(old.names) !== JSON.stringify(v.names) ||
      JSON.stringify(old.games) !== JSON.stringify(v.games)) drawPanel(v);
}

const CARD_COLOURS = ["#d62828", "#1d4ed8", "#15803d", "#eab308", "#7e22ce", "#c2410c"];
const CARD_TEXT = ["#fff", "#fff", "#fff", "#1d1d1d", "#fff", "#fff"];  // 4.5:1 at the least

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function drawPanel(v) {
  const rows = v.balances.map(([bal, short], i) => {
    const name = v.names ? (v.names[i] || "") : null;
    return `<tr><td><span class="chip" style="background:${CARD_COLOURS[i]};color:${CARD_TEXT[i]}">${i + 1}</span></td>` +
      (name === null ? "" : `<td class="name" data-card="${i + 1}" role="button" tabindex="0" ` +
        `aria-label="${escape(say("page.label.name", { n: i + 1,
          name: name || say("page.label.no-name") }))}">` +
        `${escape(name) || "&middot;&middot;&middot;"}</td>`) +
      `<td class="num">${bal}</td><td class="short">${short}</td></tr>`;
  });
  $("balances").innerHTML = rows.join("");
  $("log").innerHTML = v.log.length
    ? v.log.map((l) => `<li>${escape(l)}</li>`).join("")  // the banker's names in it
    : `<li class="none">${TEXTS["page.none"]}</li>`;
  // The kept games (GAMES), each with its "bring back" (RESTORE GAME in maintenance mode, as
  // the window's panel): in the window's words, the banker's names for the cards.
  $("games").innerHTML = v.games.length
    ? v.games.map((g) => `<li><span class="game-head">${escape(g.head)}</span>` +
        `<span class="game-who">${g.who.map((w) => `<span>${escape(w)}</span>`).join("")}` +
        `</span><button type="button" class="bring-back" data-game="${g.id}">` +
        `${escape(TEXTS["win.bring-back"])}</button></li>`).join("")
    : `<li class="none">${TEXTS["win.none-kept"]}</li>`;
}

// -- the keypad -------------------------------------------------------------------------------

const held = new Set();
function press(k) {
  if (held.has(k)) return;
  held.add(k);
  $("key-" + k).classList.add("down");
  act("down", k);
}
function release(k) {
  if (!held.delete(k)) return;
  $("key-" + k).classList.remove("down");
  act("up", k);
}
// The page left (another window, another tab) while a key was down: its key-up goes elsewhere,
// and a C or DEAL still held here would start a new game or maintenance behind the banker.
function releaseAll() {
  for (const code of Object.keys(byCode)) delete byCode[code];
  for (const k of [...held]) release(k);
}

// A keyboard's key holds the unit's key until that same key comes up: by its code, as Shift let
// go first turns "+" into "=" on the way up.
const byCode = {};
const keyName = (e) => (e.key.length === 1 ? e.key.toLowerCase() : e.key);

// Space and Enter on a focused control are that control's: a key of the keypad presses itself,
// a card or a slot acts as a tap on it, a button does what it does. Elsewhere Space is DEAL.
function focusedControl(e) {
  if (e.key !== " " && e.key !== "Enter") return null;
  return e.target.closest ? e.target.closest("button, summary, a, [role=button]") : null;
}

function buildKeys() {
  for (const row of KEY_ROWS) {
    for (const k of row) {
      const b = document.createElement("button");
      b.id = "key-" + k;
      b.dataset.key = k;
      b.className = "key" + (k === "+" ? " plus" : k === "-" ? " minus" : k === "C" ? " clear" : "") +
        (k === "DEAL" ? " deal" : "") + (row.length === 2 ? " wide" : "");
      b.textContent = KEY_LABEL[k] || k;
      if (k === "C" || k === "DEAL") {  // the 3 s holds' bar (B11, maintenance)
        const bar = document.createElement("span");
        bar.className = "hold-bar";
        bar.hidden = true;
        b.appendChild(bar);
      }
      if (k === "-" || k === "+") b.dataset.sayLabel = k === "-" ? "page.label.minus" : "page.label.plus";
      b.setAttribute("aria-label", k === "-" ? "minus" : k === "+" ? "plus" : k);
      b.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        try { b.setPointerCapture(e.pointerId); } catch (err) { /* a pointer already gone */ }
        press(k);
      });
      for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) {
        b.addEventListener(ev, () => release(k));
      }
      b.addEventListener("contextmenu", (e) => e.preventDefault());
      $("keys").appendChild(b);
    }
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (!$("ask").hidden) return;  // the banker answers the link's options first
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const ctl = focusedControl(e);
    const k = ctl ? ctl.dataset.key : KEYBOARD[keyName(e)];
    if (ctl && !k) {
      if (!ctl.matches(".card, .slot, [role=button]")) return;  // a button's own, as ever
      e.preventDefault();
      if (e.repeat) return;
      if (ctl.classList.contains("card")) tapCard(Number(ctl.dataset.card));
      else if (ctl.dataset.slot) tapSlot(ctl.dataset.slot);
      else ctl.click();
      return;
    }
    if (!k) return;
    e.preventDefault();
    if (e.repeat) return;
    byCode[e.code || keyName(e)] = k;
    press(k);
  });
  document.addEventListener("keyup", (e) => {
    const id = e.code || keyName(e);
    const k = byCode[id];
    if (k === undefined) return;
    delete byCode[id];
    release(k);
  });
  window.addEventListener("blur", releaseAll);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") releaseAll();
  });
}

// -- the cards: tap one then a slot, or drag it; tap one in a slot to take it out -----------

let selected = null;
const cardEls = {};

function buildCards() {
  for (let n = 1; n <= 6; n++) {
    const home = document.createElement("div");
    home.className = "home";
    home.id = "home-" + n;
    const c = document.createElement("div");
    c.className = "card";
    c.id = "card-" + n;
    c.setAttribute("role", "button");
    c.tabIndex = 0;  // a keyboard reaches it: Enter or Space is a tap
    c.dataset.card = n;
    c.dataset.sayLabel = "page.label.card";
    c.setAttribute("aria-label", "card " + n);
    c.style.background = CARD_COLOURS[n - 1];
    c.style.color = CARD_TEXT[n - 1];
    c.innerHTML = `<span class="arrow">\u25b2</span><span class="num">${n}</span>`;
    home.appendChild(c);
    $("tray").appendChild(home);
    cardEls[n] = c;
    dragging(c, n);
  }
  for (const s of ["L", "R"]) {
    $("slot-" + s).addEventListener("click", (e) => {
      if (!e.target.closest(".card")) tapSlot(s);
    });
  }
}

function tapCard(n) {
  const s = slotOf(n);
  // A card chosen, then a slot tapped where a card stands (on that card): the chosen one goes
  // in, pushing it out, as a card dropped there does.
  if (s && selected !== null && selected !== n) insert(selected, s);
  else if (s) { select(null); takeOut(n); } else select(selected === n ? null : n);
}

function tapSlot(s) {
  if (selected !== null) insert(selected, s);
}

function slotOf(n) {
  if (!view) return null;
  return view.slots[0] === n ? "L" : view.slots[1] === n ? "R" : null;
}

function insert(n, s) {
  select(null);
  const from = slotOf(n);
  if (from === s) return;
  if (from) act("out", from);
  const there = view.slots[s === "L" ? 0 : 1];
  if (there !== null) act("out", s);  // the slot's card is pushed out by the new one
  act("in", s, n);
}

function takeOut(n) {
  const from = slotOf(n);
  if (from) act("out", from);
}

function select(n) {
  if (selected !== null) cardEls[selected].classList.remove("selected");
  selected = n;
  if (n !== null) cardEls[n].classList.add("selected");
  document.body.classList.toggle("choosing", n !== null);
}

function dragging(c, n) {
  let start = null;
  let moved = false;
  c.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    try { c.setPointerCapture(e.pointerId); } catch (err) { /* a pointer already gone */ }
    start = [e.clientX, e.clientY];
    moved = false;
  });
  c.addEventListener("pointermove", (e) => {
    if (!start) return;
    const dx = e.clientX - start[0];
    const dy = e.clientY - start[1];
    if (!moved && Math.hypot(dx, dy) < 8) return;
    moved = true;
    c.classList.add("dragged");
    c.style.transform = `translate(${dx}px, ${dy}px)`;
  });
  const end = (e, cancelled) => {
    if (!start) return;
    start = null;
    c.classList.remove("dragged");
    c.style.transform = "";
    if (cancelled) return;
    if (!moved) {
      tapCard(n);
      return;
    }
    const target = ["L", "R"].find((s) => {
      const r = $("slot-" + s).getBoundingClientRect();
      return e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top - 40 &&
        e.clientY <= r.bottom + 20;
    });
    if (target) insert(n, target); else takeOut(n);
  };
  c.addEventListener("pointerup", (e) => end(e, false));
  c.addEventListener("pointercancel", (e) => end(e, true));
}

// Which card is in which slot, kept per game beside its files (not under PREFIX: not one of
// the store's): a power cut leaves the cards where they are, and the unit reads the cards
// seated in its slots at boot (B16), so a reload seats them again, as insertions. Kept from
// whatever moved them (a tap, a drag, the console's INSERT/REMOVE), by the tab running the game
// only (mine()); not while a unit just booted has yet to be given them (seating).
const SLOTS = "bank-unit-slots/" + GAME;
let seating = true;

function keepSlots(v) {
  if (seating || !mine()) return;
  mark("localStorage", SLOTS, JSON.stringify(v.slots));
}

function seatCards() {
  let kept = [];
  try { kept = JSON.parse(mark("localStorage", SLOTS)) || []; } catch (e) { /* none kept */ }
  seating = false;
  for (const [i, s] of ["L", "R"].entries()) {
    const n = kept[i];
    if (Number.isInteger(n) && n >= 1 && n <= 6 && !view.slots.includes(n)) act("in", s, n);
  }
  keepSlots(view);  // a kept card the unit did not take is kept no more
}

function placeCards(v) {
  for (let n = 1; n <= 6; n++) {
    const s = v.slots[0] === n ? "L" : v.slots[1] === n ? "R" : null;
    const parent = s ? $("slot-" + s) : $("home-" + n);
    if (cardEls[n].parentNode !== parent) {
      const focused = document.activeElement === cardEls[n];
      parent.appendChild(cardEls[n]);
      if (focused) cardEls[n].focus();  // moved, it would lose a keyboard's focus
    }
    cardEls[n].classList.toggle("inserted", !!s);
  }
}

// -- the serial protocol, from the console and from JavaScript ------------------------------

function consoleOut(line) {
  const out = $("console-out");
  out.textContent += line + "\n";
  out.scrollTop = out.scrollHeight;
}

function send(line) {
  if (refused) return [refused];
  if (stopped || !body) return ["this tab does not run the game: another tab does"];
  const reply = body.send(line);
  act("view");
  return reply.split("\n");
}

function buildNames() {
  // A name is given through the protocol's NAME, as host tools give it: one way for both.
  $("balances").addEventListener("click", (e) => {
    const cell = e.target.closest(".name");
    if (!cell) return;
    const n = cell.dataset.card;
    const text = prompt(TEXTS["page.name-for"].replace("{n}", n), view.names[n - 1] || "");
    if (text === null) return;
    // Spaces only, as the unit splits words: a name in any language keeps its other characters
    const name = text.split(" ").filter((w) => w).join(" ");
    const why = body.name_refused(name);  // the unit's check, said in the page's language
    if (why) {
      alert(why);
      return;
    }
    const reply = send(("NAME " + n + " " + name).trim());
    if (!reply[reply.length - 1].startsWith("OK")) alert(reply[reply.length - 1]);
  });
}

function buildGames() {
  $("games").addEventListener("click", (e) => {
    const b = e.target.closest(".bring-back");
    if (b) act("restore", Number(b.dataset.game));
  });
}

function buildPot() {
  // SET POT on the panel's own line (web/body.py): the unit decides, as for a host.
  $("pot").addEventListener("change", () => act("pot", $("pot").checked ? "on" : "off"));
}

function buildConsole() {
  $("console-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const line = $("console-in").value;
    $("console-in").value = "";
    consoleOut("> " + line);
    for (const r of send(line)) consoleOut(r);
  });
}

// -- start ------------------------------------------------------------------------------------

// -- the first load: a progress bar by bytes --------------------------------------------------
// What the unit needs before it starts is ~0.9 MB (the port's WebAssembly, its module, the
// firmware's files): on a slow link, seconds. Each file is read as a stream and its bytes
// counted against the sizes the build wrote (load.json). A later load comes from the service
// worker's copy: the same counting, over at once, and the bar never shows (it waits 250 ms).

let loadTotal = 0;
let loaded = 0;

function progress(n) {
  loaded += n;
  const frac = loadTotal ? Math.min(1, loaded / loadTotal) : 0;
  $("load-bar").value = frac;
  $("load-text").textContent = frac < 1
    ? say("page.loading", { n: Math.floor(frac * 100) }) : say("page.starting");
}

async function fetchBytes(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(path + ": " + r.status);
  if (!r.body || !r.body.getReader) {
    const all = new Uint8Array(await r.arrayBuffer());
    progress(all.length);
    return all;
  }
  const reader = r.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.length;
    progress(value.length);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return all;
}

function blobUrl(bytes, type) {
  return URL.createObjectURL(new Blob([bytes], { type }));
}

async function start() {
  CELLS = buildCells();
  buildKeys();
  buildCards();
  buildConsole();
  buildNames();
  buildGames();
  buildPot();
  $("take-over").addEventListener("click", takeOver);
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    // Served from the offline copy: no bar, the unit as it stands until its display lights.
    $("loading").classList.add("quiet");
  }
  // A simulator that serves a table view says so on what it serves (--web; docs/table.md):
  // only then does the page feed it, and a page on any other host asks for nothing more.
  let table = false;
  const sizes = await fetch("load.json").then((r) => {
    table = r.headers.has("X-Bank-Table");
    return r.json();
  }).then((j) => j.bytes, () => ({}));
  loadTotal = Object.values(sizes).reduce((a, b) => a + b, 0);
  const names = fetch("firmware/files.json").then((r) => r.json());
  const [mjs, wasm, files, got] = await Promise.all([
    fetchBytes("micropython.mjs"),
    fetchBytes("micropython.wasm"),
    names,
    names.then((fw) => Promise.all(fw.map((f) => fetchBytes("firmware/" + f)).concat(
      [fetchBytes("body.py")]))),
  ]);
  // The port's module and binary from the bytes just counted: not asked of the server twice.
  const mjsUrl = blobUrl(mjs, "text/javascript");
  const wasmUrl = blobUrl(wasm, "application/wasm");
  const { loadMicroPython } = await import(mjsUrl);
  mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024, url: wasmUrl,
    stdout: (l) => console.log(l), stderr: (l) => console.warn(l) });
  URL.revokeObjectURL(mjsUrl);
  URL.revokeObjectURL(wasmUrl);
  for (const dir of ["/fw", "/web"]) mp.FS.mkdir(dir);
  files.forEach((f, i) => {
    const parts = f.split("/");
    for (let j = 1; j < parts.length; j++) {
      try { mp.FS.mkdir("/fw/" + parts.slice(0, j).join("/")); } catch (e) { /* there */ }
    }
    mp.FS.writeFile("/fw/" + f, got[i]);
  });
  mp.FS.writeFile("/web/body.py", got[got.length - 1]);
  await holdGame();  // nothing kept is read before this tab alone runs the game
  stamped = keptStamp();
  restoreState();
  // This port's os has no urandom, which a Pico's has built in (rng.py imports it): the
  // browser's own random source stands in, as bench/wasm32.mjs does.
  mp.runPython(`import os, sys, js
class _Os:
    pass
_os = _Os()
for _n in dir(os):
    setattr(_os, _n, getattr(os, _n))
def _urandom(n):
    a = js.crypto.getRandomValues(js.Uint8Array.new(n))
    return bytes([a[i] for i in range(n)])
_os.urandom = _urandom
sys.modules["os"] = _os
sys.path.insert(0, "/web")
sys.path.insert(0, "/fw")`);
  body = mp.pyimport("body");
  const seed = params.has("seed") ? Number(params.get("seed"))
    : crypto.getRandomValues(new Uint32Array(1))[0];
  const maint = params.get("maintenance");  // ?maintenance alone, or =1/on/yes
  const boot = (ask) => {
    seating = true;  // a unit switched on: its slots are read from the kept cards (seatCards)
    return JSON.parse(body.start(STATE, seed,
      (params.get("clock") || "").toLowerCase() === "virtual", params.get("profile") || "",
      maint !== null && !/^(0|off|no|false)$/i.test(maint), chosenLang(),
      (params.get("pot") || "").toLowerCase(), ask, stamped > 0));
  };
  const info = boot(true);
  if (info.refused) return refuse(info.refused, "bad-option");
  TONES = info.tones;
  speak(info);
  $("lang").addEventListener("change", () => {
    try { localStorage.setItem(LANG_KEY, $("lang").value); } catch (e) { /* not kept: fine */ }
    speak(JSON.parse(body.set_lang($("lang").value)));
    drawPanel(view);
    act("view");
  });
  act("view");
  seatCards();
  if (table) {
    feed = new Feed(body, GAME, () => { $("own-unit").hidden = false; },
      () => { $("own-unit").hidden = true; });
    feed.push();
  }
  $("own-unit-ok").addEventListener("click", () => { $("own-unit").hidden = true; });
  if (info.asks.length) askFirst(info.asks, boot);
  document.body.classList.add("ready");
  $("loading").remove();
  document.addEventListener("visibilitychange", () => view && keepAwake(view.power));
  if ("serviceWorker" in navigator && window.isSecureContext) {
    // Offline once loaded (web/sw.js); without it the page still runs, online only.
    navigator.serviceWorker.register("sw.js").catch((e) => console.warn("offline copy: " + e));
  }
}

// -- the language: English or French, the browser's unless one was chosen ----------------------

function chosenLang() {
  let kept = null;
  try { kept = localStorage.getItem(LANG_KEY); } catch (e) { /* none kept */ }
  return params.get("lang") || kept || navigator.language || "en";
}

function speak(info) {
  TEXTS = info.texts;
  document.documentElement.lang = info.lang;
  $("lang").value = info.lang;
  $("take-over").textContent = say("page.take-over");
  for (const el of document.querySelectorAll("[data-say]")) {
    el.textContent = TEXTS[el.dataset.say];
  }
  labels();
}

// What a screen reader says of the page's fixed parts, in the page's language.
function labels() {
  for (const el of document.querySelectorAll("[data-say-label]")) {
    el.setAttribute("aria-label", say(el.dataset.sayLabel, { n: el.dataset.card }));
  }
}

// What tests and the console's users reach from JavaScript.
globalThis.bank = {
  ready: null,
  send,
  view: () => view,
  tones: heard,
  firstDisplayMs: () => firstDisplay,
  act: (op, a, b) => { act(op, a, b); return view; },
};
// The page's own sentences in the language it speaks, before its unit runs (web/build.py).
async function firstWords() {
  const lang = chosenLang().toLowerCase().startsWith("fr") ? "fr" : "en";
  try {
    TEXTS = (await fetch("words.json").then((r) => r.json()))[lang] || {};
  } catch (e) { /* none: each sentence is its id until the unit speaks */ }
  document.documentElement.lang = lang;
  $("take-over").textContent = say("page.take-over");
  $("load-text").textContent = say("page.loading", { n: 0 });
  labels();
}

async function begin() {
  await firstWords();
  if (!GAME_NAME.test(GAME)) return refuseGame();
  const seed = params.get("seed");
  if (seed !== null && !/^[0-9]{1,9}$/.test(seed)) {
    return refuse(say("page.bad-seed", { seed: shortened(seed) }), "bad-option");
  }
  // The options read as words: one the page would not know is said, never passed over.
  const onOff = ["", "1", "on", "yes", "true", "0", "off", "no", "false"];
  for (const [option, allowed, said] of [["clock", ["virtual", "real"], "virtual, real"],
    ["pot", ["on", "off"], "on, off"],
    ["maintenance", onOff, onOff.filter((v) => v).join(", ")]]) {
    const value = params.get(option);
    if (value !== null && !allowed.includes(value.toLowerCase())) {
      return refuse(say("page.bad-option", { option, value: shortened(value), allowed: said }),
        "bad-option");
    }
  }
  return start().then(() => true, (e) => {
    if (refused) throw e;  // a URL option refused: said already, where the notices are
    $("load-text").textContent = say("page.failed", { why: e });
    $("loading").classList.add("failed");
    console.error(e);
    throw e;
  });
}
globalThis.bank.ready = begin();
// Said on the page (a failure logged above): no unhandled rejection in the console.
globalThis.bank.ready.catch(() => {});
