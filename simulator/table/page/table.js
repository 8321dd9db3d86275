// The table view: one player's phone following the game the unit keeps (docs/table.md).
// Read only: this page sends nothing but GETs for its own files and its stream; the money moves
// on the unit. The stream (Server-Sent Events, ./stream) gives the whole view first, then one
// numbered message a change; a message out of order, or a ping with a newer number, means one
// was missed, and the stream is opened again for the whole view. No rule lives here: balances
// and amounts come as the unit gives them and puts them (desktop/words.py, server side).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const KEY = "bank-table" + location.pathname;  // the secret's path: one game, one choice
  const LANG_KEY = "bank-table/lang";
  let WORDS = null;
  let W = {};
  let locale = "en-GB";
  let model = null;  // the last view: v, unit, profile, state, names, balances, shown, night, log
  let src = null;
  let connected = false;
  let heard = 0;  // performance.now() of the stream's last message
  let heardAt = null;  // the wall clock of it, for "what the table said at 14:05"
  let reopenAt = 0;
  let card = Number(localStorage.getItem(KEY + "/card")) || null;
  let tab = "history";

  function say(id, fields = {}) {
    let text = W[id] !== undefined ? W[id] : id;
    for (const [k, v] of Object.entries(fields)) text = text.split("{" + k + "}").join(v);
    return text;
  }

  function who(c) {
    if (c === "bank") return say("bank");
    const name = model && model.names[c];
    return name ? say("named", { name, n: c }) : say("card", { n: c });
  }

  // -- the stream ------------------------------------------------------------------------------

  function open() {
    if (src) src.close();
    reopenAt = performance.now();
    src = new EventSource("stream");
    src.addEventListener("snapshot", (e) => {
      listened();
      model = JSON.parse(e.data);
      draw();
    });
    src.addEventListener("update", (e) => {
      listened();
      const u = JSON.parse(e.data);
      if (!model || u.v !== model.v + 1) return open();  // one missed: the whole view again
      apply(u);
      draw();
    });
    src.addEventListener("ping", (e) => {
      listened();
      if (model && Number(e.data) > model.v) open();
    });
    src.onerror = () => {
      // The browser tries again by itself (retry: 1 s) unless the answer was not a stream.
      lost();
      if (src.readyState === EventSource.CLOSED) setTimeout(open, 3000);
    };
  }

  function listened() {
    heard = performance.now();
    heardAt = new Date();
    if (!connected) {
      connected = true;
      drawLink();
    }
  }

  function lost() {
    if (connected) {
      connected = false;
      drawLink();
    }
  }

  function apply(u) {
    const log = model.log;
    model = Object.assign(u, { log });
    if (u.txn && (!log.length || u.txn.seq > log[log.length - 1].seq)) {
      log.push(u.txn);
      if (log.length > 200) log.splice(0, log.length - 200);
    }
    delete model.txn;
  }

  // A phone that slept or lost the network may keep a stream that no longer hears anything:
  // without a message for a few pings it is not connected, and the stream is opened again.
  setInterval(() => {
    const ping = (model && model.ping_ms) || 5000;
    const quiet = performance.now() - heard;
    if (connected && quiet > 2.5 * ping) {
      lost();
      open();
    } else if (!connected && performance.now() - reopenAt > 2.5 * ping) {
      open();
    }
  }, 1000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && performance.now() - heard > 1500) open();
  });
  window.addEventListener("online", () => open());
  window.addEventListener("offline", () => lost());

  // -- drawing ---------------------------------------------------------------------------------

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function cards() {
    return model && model.balances ? Object.keys(model.balances).map(Number) : [];
  }

  function drawLink() {
    const link = $("link");
    link.dataset.state = connected ? "live" : "offline";
    link.textContent = say(connected ? "table.live" : "table.not-live");
    drawBanner();
  }

  function drawBanner() {
    const b = $("banner");
    let text = "";
    let kind = "";
    if (!connected) {
      kind = "offline";
      text = heardAt ? say("table.offline", { time: heardAt.toLocaleTimeString(locale) })
        : say("table.connecting");
    } else if (model && model.unit === "gone") {
      kind = "gone";
      text = say("table.gone");
    } else if (!model || model.unit === "waiting") {
      kind = "waiting";
      text = say("table.waiting");
    }
    b.hidden = !text;
    b.textContent = text;
    b.dataset.kind = kind;
    document.body.classList.toggle("stale", !connected || (model && model.unit !== "live"));
    drawDeal();
  }

  function drawState() {
    const s = model && model.state;
    let text = "";
    let kind = "";
    if (s) {
      if (s.no_game) [kind, text] = ["no-game", say("table.no-game")];
      else if (s.damaged) [kind, text] = ["damaged", say("table.damaged")];
      else if (s.power === "off") [kind, text] = ["off", say("table.off")];
      else if (s.maintenance) [kind, text] = ["maintenance", say("table.maintenance")];
    }
    const u = $("unit-state");
    u.hidden = !text;
    u.textContent = text;
    u.dataset.kind = kind;
    drawDeal();
  }

  // The auction's timer as the unit runs it: none shown from a unit not heard now, whose timer
  // has run on or ended unseen.
  function drawDeal() {
    const s = model && model.state;
    const live = connected && model && model.unit === "live";
    const deal = $("deal");
    const phase = live && s && s.power === "on" ? s.deal : "idle";
    deal.hidden = phase === "idle";
    deal.dataset.phase = phase;
    deal.textContent = phase === "idle" ? "" : say("deal." + phase);
  }

  function drawPick() {
    const box = $("cards");
    box.replaceChildren();
    for (const c of cards()) {
      const b = el("button", "card-pick");
      b.type = "button";
      b.dataset.card = c;
      b.append(el("span", "who", who(c)), el("span", "amount", model.shown[c]));
      b.addEventListener("click", () => pick(c));
      box.append(b);
    }
  }

  function line(t, c) {
    // One transaction as this player sees it: whom from or to, the amount, what was left.
    const into = t.to === c;
    const other = into ? t.from : t.to;
    let what;
    if (t.kind === "go") what = say("table.go");
    else if (other === "pot") what = say(into ? "table.from-pot" : "table.to-pot");
    else if (t.kind === "set") what = say("table.set");
    else if (t.kind === "restore") what = say("table.restore");
    else what = say(into ? "table.from" : "table.to", { who: who(other) });
    if (t.undoes) what += say("txn.undoes", { seq: t.undoes });
    const li = el("li", into ? "in" : "out");
    li.dataset.seq = t.seq;
    li.append(el("span", "seq", "#" + t.seq), el("span", "what", what));
    const amount = t.kind === "restore" ? "" : (into ? "+" : "\u2212") + t.shown;
    li.append(el("span", "amount", amount));
    const after = t.shown_balances[c];
    if (after !== undefined) li.append(el("span", "after", say("table.after", { amount: after })));
    return li;
  }

  function drawHistory() {
    const ol = $("hist");
    ol.replaceChildren();
    const mine = model.log.filter((t) => t.from === card || t.to === card ||
      (t.kind === "restore" && String(card) in t.balances));
    for (const t of mine.slice().reverse()) ol.append(line(t, card));
    $("hist-none").hidden = mine.length > 0;
  }

  function drawStandings() {
    const ol = $("stand");
    ol.replaceChildren();
    const order = cards().sort((a, b) => model.balances[b] - model.balances[a] || a - b);
    for (const c of order) {
      const li = el("li", c === card ? "you" : "");
      li.dataset.card = c;
      li.append(el("span", "who", who(c) + (c === card ? " \u2014 " + say("table.you") : "")),
        el("span", "amount", model.shown[c]));
      ol.append(li);
    }
  }

  function drawNight() {
    // Game night as the unit keeps it (B19-B22): the pot's money, the clock's minutes left,
    // the count's places (shared by equal counts, as the unit gives them) and who wins.
    const n = model && model.balances ? model.night : null;
    const pot = n && n.pot !== null ? say("night.pot", { amount: n.pot_shown }) : "";
    const c = n && n.clock;
    let clock = "";
    if (c && c.over) clock = say("night.clock.over");
    else if (c) clock = say(c.running ? "night.clock" : "night.clock.stopped", { n: c.min_left });
    const count = n && n.count && n.count.on ? n.count : null;
    for (const [id, text] of [["night-pot", pot], ["night-clock", clock]]) {
      $(id).hidden = !text;
      $(id).textContent = text;
    }
    $("night-count").hidden = !count;
    $("night").hidden = !pot && !clock && !count;
    if (!count) return;
    const ol = $("count-rows");
    ol.replaceChildren();
    for (const [place, c, , shown] of count.rows) {
      const li = el("li", c === card ? "you" : "");
      li.dataset.card = c;
      li.append(el("span", "place", place + "."), el("span", "who", who(c)),
        el("span", "amount", shown));
      ol.append(li);
    }
    const first = count.rows.filter((r) => r[0] === 1).map((r) => who(r[1]));
    const best = count.rows.length ? count.rows[0][3] : "";
    $("count-winner").textContent = !first.length ? say("night.count.none")
      : first.length === 1 ? say("night.winner", { who: first[0], amount: best })
        : say("night.tie", { who: first.join(say("night.and")), amount: best });
  }

  function draw() {
    drawLink();
    drawState();
    const known = cards().includes(card);
    $("pick").hidden = !model || !model.balances || known;
    $("me").hidden = !known;
    $("views").hidden = !known;
    drawNight();
    if (!model || !model.balances) return;
    if (!known) {
      drawPick();
      return;
    }
    $("me-name").textContent = who(card);
    const bal = model.balances[card];  // none at Err6: the unit reports no balance (B17)
    $("me-balance").textContent = bal == null ? "\u2014" : model.shown[card];
    $("me-exact").textContent = bal == null ? "" : bal.toLocaleString(locale);
    drawHistory();
    drawStandings();
    for (const t of ["history", "standings"]) {
      $(t).hidden = tab !== t;
      $("tab-" + t).setAttribute("aria-selected", String(tab === t));
    }
  }

  function pick(c) {
    card = c;
    if (c) localStorage.setItem(KEY + "/card", String(c));
    else localStorage.removeItem(KEY + "/card");
    draw();
  }

  function show(t) {
    tab = t;
    draw();
  }

  // -- the language ------------------------------------------------------------------------------

  function speak(code) {
    const lang = String(code || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
    W = WORDS[lang];
    locale = lang === "fr" ? "fr-FR" : "en-GB";
    document.documentElement.lang = lang;
    $("lang").value = lang;
    for (const e of document.querySelectorAll("[data-say]")) e.textContent = say(e.dataset.say);
    document.title = say("table.title");
    draw();
  }

  async function start() {
    WORDS = await fetch("words.json").then((r) => r.json());
    $("change").addEventListener("click", () => pick(null));
    $("tab-history").addEventListener("click", () => show("history"));
    $("tab-standings").addEventListener("click", () => show("standings"));
    $("lang").addEventListener("change", () => {
      localStorage.setItem(LANG_KEY, $("lang").value);
      speak($("lang").value);
    });
    speak(new URLSearchParams(location.search).get("lang") || localStorage.getItem(LANG_KEY) ||
      navigator.language);
    open();
    if ("serviceWorker" in navigator && window.isSecureContext) {
      // Installable, and the page itself opens with no network (saying it is not connected).
      navigator.serviceWorker.register("sw.js").catch((e) => console.warn("offline copy: " + e));
    }
  }

  // What the tests reach (and a curious player's console): read-only, as the page is.
  window.table = {
    model: () => model,
    connected: () => connected,
    card: () => card,
    pick,
    show,
    speak,
    ready: start(),
  };
})();
