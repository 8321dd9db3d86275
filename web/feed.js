// The page's feed to the table view of the simulator that serves it (--web; docs/table.md):
// what the unit does, as its own protocol says it (desktop/reads.py's TableFeed: the events, the
// state when it changed, the whole game when the table asks), posted to table/feed on this
// origin, and every few seconds even when nothing moves, so the table knows the unit is there.
// Read-only toward the unit: nothing comes back but whether this page is the table's unit. A
// page the table does not take (opened on a phone, or while another page is the table's unit)
// says so and plays on as a unit of its own; a page served without a table (any static host)
// feeds nothing and says nothing.
const FEED = "table/feed";
const BEAT_MS = 3000;
const AWAY_MS = 24000;  // the longest the page leaves a server away alone before asking again

function pageId(game) {
  // One id per game in this browser: a reload, or another tab taking the game over, is the
  // same unit for the table.
  const key = "bank-unit/" + game + "/table-page";
  let id = null;
  try { id = localStorage.getItem(key); } catch (e) { /* not kept: a new id each load */ }
  if (!id) {
    id = [...crypto.getRandomValues(new Uint8Array(12))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem(key, id); } catch (e) { /* fine */ }
  }
  return id;
}

export class Feed {
  constructor(body, game, refused, taken) {
    this.body = body;
    this.game = game;  // the table takes only the game at the unit's link: "default"
    this.page = pageId(game);
    this.refusedSay = refused;  // what the page shows when the table takes another unit
    this.takenSay = taken;  // ... and when it takes this page again (that unit gone)
    this.on = true;
    this.taken = true;  // the table hears this page (until it says otherwise)
    this.busy = false;
    this.again = false;
    this.whole = true;
    this.away = 0;  // ms left alone after a post that found no server, doubling to AWAY_MS
    this.until = 0;  // ... until then (Date.now())
    this.beat = setInterval(() => this.push(true), BEAT_MS);
    addEventListener("pagehide", () => {
      if (this.on && this.taken) {
        navigator.sendBeacon(FEED, JSON.stringify({ page: this.page, game: this.game,
          bye: true }));
      }
    });
  }

  push(beat = false) {
    if (!this.on) return;
    if (navigator.onLine === false || Date.now() < this.until) {
      // Nothing to reach: a post would only be an error in the console. What the unit did is
      // dropped, and the whole game told once the server answers again.
      if (this.taken) this.body.table_lines(false);
      this.whole = true;
      return;
    }
    if (this.busy) {
      this.again = true;
      return;
    }
    const lines = this.taken ? JSON.parse(this.body.table_lines(this.whole)) : [];
    this.whole = false;
    if (!lines.length && !beat) return;
    this.busy = true;
    fetch(FEED, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ page: this.page, game: this.game, lines }) })
      .then(async (r) => {
        if (r.status === 404 || r.status === 405 || r.status === 501) return this.stop();
        // Refused as no page of this machine's (opened by a name the server does not answer
        // to as its own): never the table's unit, so it stops asking, as a phone's page does.
        if (r.status === 403) return this.notTaken("lan");
        const got = await r.json().catch(() => ({}));
        if (got.unit === false) return this.notTaken(got.why);
        if (!this.taken || got.whole) this.whole = true;
        if (!this.taken) this.takenSay();
        this.taken = true;
        this.away = 0;
        return null;
      })
      .catch(() => {  // the server away: tell it all when it is back, asked less and less often
        this.whole = true;
        this.away = Math.min(AWAY_MS, Math.max(BEAT_MS, this.away * 2));
        // The beat that ends the wait asks: the failure came a little after its own beat.
        this.until = Date.now() + this.away - BEAT_MS / 2;
      })
      .finally(() => {
        this.busy = false;
        if (this.again) {
          this.again = false;
          this.push();
        }
      });
  }

  notTaken(why) {
    if (this.taken) {
      this.taken = false;
      this.body.table_stop();  // its events are kept no more
      this.refusedSay();
    }
    // A page on another machine or on another game is never the table's unit; else it asks
    // again (every beat), and is taken once the other unit's page has gone quiet.
    if (why === "lan" || why === "game") this.stop();
  }

  stop() {
    this.on = false;
    clearInterval(this.beat);
    if (this.taken) this.body.table_stop();
  }
}
