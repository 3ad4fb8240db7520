// All-Fours on the referee tablet: the board (the trick by seat, the kick, the lead), the hand's
// points as the engine tallies them, each pair's bullseyes, and the inputs the camera cannot see
// (begging, the deal, singing, hands shown for a renege claim, faults).
//
// It reads the engine's state from the table snapshot (`state`, and `view` when the service adds
// it: api/views.py) and refreshes it from GET /api/tables/{id}/state after every referee message,
// because updates on the websocket carry what changed, not the whole board. The points actually
// counted come from the engine's SCORE updates (codes high, low, jack, hang_jack, game, kick,
// give_one), so the page never re-decides a rule. Cards are text tiles: rank and suit symbol.
"use strict";

const AF = (() => {
  const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  const TEAM_OF = { south: "A", north: "A", east: "B", west: "B" };
  const POINTS = [["high", "High"], ["low", "Low"], ["jack", "Jack"], ["hang_jack", "Hang-Jack"], ["game", "Game"]];
  const EXTRA = { kick: "Kick", give_one: "Give one", misdeal: "Misdeal", penalty: "Penalty" };
  const MISDEALS = ["wrong_count", "deal_variation", "landslide", "reshuffled_after_cut", "cards_checked_after_pack_down",
    "wrong_saddle", "exposed_card_refused", "cut_turned_over"];
  const KICK_FAULTS = ["dealer_handled_pack", "two_cards_kicked", "two_cards_wrongly_declared", "top_cut_card_kicked",
    "run_variation", "pack_fell_before_kick", "pack_fell_after_kick"];
  const PENALTIES = ["hidden_card", "looked_at_cards", "went_into_lift", "improper_gathering", "dealer_over_brewing",
    "cutter_delay", "other_player_brewing", "delay_of_game", "absent_player", "walked_away", "wrong_table",
    "score_sheet_table", "late_start", "improper_point_writing", "handled_pack_in_gamble", "erased_points",
    "stole_points", "dishonesty", "obscene_language", "left_dispute"];

  const af = { st: null, view: null, counted: [], awards: null, choice: null, picked: [], refreshTimer: null,
               tableId: null, fetchState: null, send: null };
  const el = (id) => document.getElementById(id);

  function parse(card) {
    const m = /^(10|[2-9JQKA])([SHDC])$/.exec(String(card || "").toUpperCase());
    return m ? { rank: m[1], suit: m[2] } : null;
  }

  function tile(card, extra) {
    const d = document.createElement("span");
    const c = parse(card);
    d.className = "card" + (c && (c.suit === "H" || c.suit === "D") ? " red" : "") + (extra ? " " + extra : "");
    if (!c) { d.textContent = card ? String(card) : "?"; return d; }
    d.dataset.card = `${c.rank}${c.suit}`;
    d.setAttribute("aria-label", `${c.rank} of ${SUIT_NAME[c.suit]}`);
    d.innerHTML = '<span class="rank"></span><span class="suit"></span>';
    d.querySelector(".rank").textContent = c.rank;
    d.querySelector(".suit").textContent = SUIT[c.suit];
    return d;
  }

  function teamName(t) {
    const names = (af.st && af.st.teams) || {};
    return names[t] && names[t] !== "south/north" && names[t] !== "east/west" ? `${t} ${names[t]}` : t;
  }

  // -- reading the engine's state: the view when served, else the raw state ---------------------
  function hand() {
    if (af.view) return af.view.hand;
    const g = af.st && af.st.game;
    const h = g && g.hand;
    if (!h) return null;
    const tricks = h.tricks || [];
    const shown = tricks.length ? tricks[tricks.length - 1] : null;
    return { dealer: h.dealer, lead_seat: h.lead_seat, phase: h.phase, kicks: h.kicks || [],
             kick: (h.kicks || []).slice(-1)[0] || null, trump: h.trump, stand: h.stand, stander: h.stander,
             tricks_total: Math.max(6, ...Object.values(h.cards_each || {}), 0),
             tricks_done: tricks.filter((t) => t.winner).length, trick: shown, tricks,
             to_play: null, game_totals: null, kick_points: h.kick_points, points: null, points_final: h.phase === "done" };
  }

  function setState(snapshot) {
    af.st = snapshot.state || null;
    af.view = snapshot.view || null;
    render();
  }

  // -- the websocket's referee messages ---------------------------------------------------------
  function onUpdate(u, turnSeat) {
    if (u.code === "new_hand" || u.code === "new_game") {
      af.counted = []; af.awards = null; af.choice = null;
      el("instructions").innerHTML = "";  // last hand's instructions are done with
    }
    if (u.kind === "score" && u.code && u.player) {
      af.counted.push({ code: u.code, team: u.player, points: u.points || 0 });
    }
    if (u.code === "hand_over" && u.data) af.awards = u.data;
    if (u.kind === "choice") af.choice = { seat: u.player, options: (u.data && u.data.options) || [], text: u.text };
    else if (u.kind === "phase" || u.kind === "turn") af.choice = u.kind === "turn" ? null : af.choice;
    af.turn = turnSeat;
    refreshSoon();
  }

  function refreshSoon() {
    if (af.refreshTimer) return;
    af.refreshTimer = setTimeout(async () => {
      af.refreshTimer = null;
      try { setState(await af.fetchState()); } catch (e) { /* the next message tries again */ }
    }, 120);
  }

  // -- drawing ----------------------------------------------------------------------------------
  function render() {
    renderBoard(); renderPoints(); renderTeams(); renderPrompt(); markPicker();
  }

  function renderBoard() {
    const h = hand();
    const trick = h && h.trick;
    const plays = {}; const pending = {};
    for (const p of (trick && trick.plays) || []) plays[p.seat] = p.card;
    for (const p of (trick && trick.pending) || []) pending[p.seat] = p.card;
    const toPlay = h ? (h.to_play || (h.phase === "play" ? af.turn : null)) : null;
    for (const seat of ["north", "east", "south", "west"]) {
      const box = el(`af-seat-${seat}`);
      box.className = "af-seat" + (toPlay === seat ? " to-play" : "") + (trick && trick.winner === seat ? " won" : "");
      const tags = [];
      if (h && h.dealer === seat) tags.push("dealer");
      if (h && h.lead_seat === seat) tags.push("lead player");
      if (trick && trick.leader === seat) tags.push("leads");
      if (toPlay === seat) tags.push("to play");
      if (trick && trick.winner === seat) tags.push("won the trick");
      box.querySelector(".af-name").textContent = `${seat} (${TEAM_OF[seat]})`;
      box.querySelector(".af-tags").textContent = tags.join(" · ");
      const slot = box.querySelector(".af-slot"); slot.innerHTML = "";
      if (plays[seat]) slot.appendChild(tile(plays[seat]));
      if (pending[seat]) slot.appendChild(tile(pending[seat], "pending"));
      if (!plays[seat] && !pending[seat]) slot.appendChild(tile(null, "empty"));
      const order = trick ? (trick.plays || []).findIndex((p) => p.seat === seat) : -1;
      box.dataset.order = order >= 0 ? String(order + 1) : "";
    }
    const mid = el("af-centre"); mid.innerHTML = "";
    const kick = document.createElement("div"); kick.className = "af-kick";
    const label = document.createElement("div"); label.className = "muted"; label.textContent = "kick";
    kick.append(label, tile(h ? h.kick : null, h && h.kick ? "kicked" : "empty"));
    mid.appendChild(kick);
    const info = document.createElement("div"); info.className = "af-info";
    if (!h) {
      info.textContent = af.st && af.st.game ? "waiting for the deal" : "no game yet: enter the deal";
    } else {
      const lines = [];
      lines.push(h.trump ? `trump ${SUIT[h.trump]} ${SUIT_NAME[h.trump]}` : "no trump yet");
      const number = trick ? trick.number : 1;
      lines.push(`trick ${number} of ${h.tricks_total}`);
      if (trick && trick.leader) lines.push(`${trick.leader} leads`);
      lines.push(`phase: ${h.phase}`);
      for (const t of lines) { const d = document.createElement("div"); d.textContent = t; info.appendChild(d); }
      if (h.kicks && h.kicks.length > 1) {
        const runs = document.createElement("div"); runs.className = "af-runs"; runs.append("kicks: ");
        for (const k of h.kicks) runs.appendChild(tile(k, "small"));
        info.appendChild(runs);
      }
    }
    mid.appendChild(info);
    el("af-trick-no").textContent = h && trick ? String(trick.number) : "";
    // the tricks already turned this hand, smallest first
    const past = el("af-tricks"); past.innerHTML = "";
    for (const t of (h && h.tricks) || []) {
      if (!t.winner || (trick && t.number === trick.number && !trick.winner)) continue;
      const li = document.createElement("li");
      li.append(`${t.number}. `);
      for (const p of t.plays) { const s = document.createElement("span"); s.className = "who"; s.textContent = p.seat[0].toUpperCase(); li.append(s, tile(p.card, "small")); }
      li.append(` → ${t.winner}`);
      past.appendChild(li);
    }
  }

  function renderPoints() {
    const h = hand();
    const body = el("af-points-body"); body.innerHTML = "";
    const counted = af.counted.filter((c) => POINTS.some(([code]) => code === c.code));
    let source = "";
    const cell = {};
    if (counted.length) {
      for (const c of counted) cell[c.code] = c;
      source = "counted by the referee";
    } else if (h && h.points && h.points.length) {
      for (const a of h.points) cell[a.point] = { team: a.team, points: a.points, detail: a.detail };
      source = h.points_final ? "this hand" : "as it stands (High and Low may change)";
    }
    const rows = POINTS.map(([code, title]) => [code, title]);
    for (const c of af.counted) if (EXTRA[c.code]) rows.unshift([c.code, EXTRA[c.code]]);
    const seen = new Set();
    for (const [code, title] of rows) {
      if (seen.has(code)) continue; seen.add(code);
      const tr = document.createElement("tr"); tr.dataset.point = code;
      const th = document.createElement("th"); th.textContent = title; tr.appendChild(th);
      const entries = EXTRA[code] ? af.counted.filter((c) => c.code === code) : (cell[code] ? [cell[code]] : []);
      for (const team of ["A", "B"]) {
        const td = document.createElement("td"); td.dataset.team = team;
        const pts = entries.filter((e) => e.team === team).reduce((s, e) => s + e.points, 0);
        td.textContent = entries.some((e) => e.team === team) ? String(pts) : "–";
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    const totals = (h && h.game_totals) || (af.awards && af.awards.game_totals);
    el("af-game-totals").textContent = totals ? `Game cards: A ${totals.A} · B ${totals.B}` : "";
    el("af-points-source").textContent = source;
    el("af-col-a").textContent = teamName("A"); el("af-col-b").textContent = teamName("B");
  }

  function renderTeams() {
    const st = af.st; const box = el("scoreboard"); box.innerHTML = "";
    const g = st && st.game;
    const target = (af.view && af.view.target) || 14;
    for (const team of ["A", "B"]) {
      const d = document.createElement("div"); d.className = "score af-team"; d.dataset.team = team;
      if (g && g.singer === team) d.className += " turn";
      const pts = g ? g.points[team] : 0;
      d.innerHTML = '<div class="who"></div><div class="pts"></div><div class="tally"></div>';
      d.querySelector(".who").textContent = `${teamName(team)} · ${team === "A" ? "south/north" : "east/west"}`;
      d.querySelector(".pts").textContent = `${pts}`;
      const bulls = st ? st.bullseyes[team] : 0, hangs = st ? st.hang_jacks[team] : 0;
      d.querySelector(".tally").textContent = `of ${target} · bullseyes ${bulls} · hang-jacks ${hangs}`;
      box.appendChild(d);
    }
    const games = el("af-games");
    games.textContent = st ? `game ${g ? g.number : 0} · ${st.games_played} games played at this table` +
      (g && g.power_play ? " · POWER PLAY" : "") + (st.table_closed ? " · table closed" : "") : "";
  }

  function renderPrompt() {
    const h = hand();
    const prompt = el("af-prompt");
    const expected = new Set();
    if (af.choice && h && (h.phase === "kicked" || h.phase === "begged")) {
      prompt.textContent = af.choice.text; af.choice.options.forEach((o) => expected.add(o));
    } else if (h && h.phase === "kicked") { prompt.textContent = `${h.lead_seat}: stand or beg`; expected.add("stand"); expected.add("beg"); }
    else if (h && h.phase === "begged") { prompt.textContent = `${h.dealer}: give one or run the pack`; expected.add("give"); expected.add("run_pack"); }
    else if (h && h.phase === "dealt") { prompt.textContent = "waiting for the kick (a blind stand is possible now)"; expected.add("blind_stand"); }
    else if (!h || h.phase === "done") { prompt.textContent = "next: the deal"; expected.add("deal"); }
    else prompt.textContent = "";
    for (const b of document.querySelectorAll("#game-inputs button[data-input]")) {
      b.classList.toggle("suggested", expected.has(b.dataset.input));
    }
    const dealer = el("af-dealer");
    if (dealer && af.st && af.st.next_dealer && !dealer.dataset.touched) dealer.value = af.st.next_dealer;
  }

  // -- the inputs: begging, the deal, singing, hands shown ---------------------------------------
  function mk(tag, props, ...kids) { const e = document.createElement(tag); Object.assign(e, props || {}); e.append(...kids); return e; }
  function btn(label, input, body) {
    const b = mk("button", { textContent: label, onclick: () => af.send(typeof body === "function" ? body() : { input, ...(body || {}) }) });
    b.dataset.input = input; return b;
  }
  function sel(options, id) {
    const s = mk("select", id ? { id } : {});
    for (const o of options) { const [v, t] = Array.isArray(o) ? o : [o, o]; s.appendChild(mk("option", { value: v, textContent: t })); }
    return s;
  }
  const SEATS = ["south", "east", "north", "west"];

  function inputs(container) {
    const prompt = mk("div", { id: "af-prompt", className: "af-prompt" });
    const begging = mk("div", { className: "row" }, mk("span", { className: "af-label", textContent: "Begging" }),
      btn("Stand", "stand"), btn("Beg", "beg"), btn("Give one", "give"), btn("Run the pack", "run_pack"), btn("Blind stand", "blind_stand"));
    const dealer = sel(SEATS, "af-dealer");
    dealer.onchange = () => { dealer.dataset.touched = "1"; };
    const deal = mk("div", { className: "row" }, mk("span", { className: "af-label", textContent: "Deal" }), dealer,
      btn("Deal", "deal", () => ({ input: "deal", dealer: dealer.value })),
      btn("New game", "new_game", () => ({ input: "new_game", dealer: dealer.value })),
      btn("Sing A", "sing", { team: "A" }), btn("Sing B", "sing", { team: "B" }));
    container.append(prompt, begging, deal, shownBox(), faultsBox());
    render();
  }

  // Hands shown: a seat and the cards it shows, picked on a 4 x 13 grid of tiles.
  function shownBox() {
    const box = mk("details", { id: "af-shown", className: "af-box" });
    box.appendChild(mk("summary", { textContent: "Hand shown (renege claim, throw-in, dealt hand, sing)" }));
    const seat = sel(SEATS, "af-shown-seat");
    const picked = mk("span", { id: "af-picked", className: "af-picked" });
    const grid = mk("div", { id: "af-picker", className: "af-picker" });
    for (const suit of ["S", "H", "D", "C"]) {
      for (const rank of RANKS) {
        const t = tile(rank + suit, "pick");
        t.setAttribute("role", "button"); t.tabIndex = 0;
        t.onclick = () => togglePick(rank + suit);
        grid.appendChild(t);
      }
    }
    const cards = () => af.picked.slice();
    const actions = mk("div", { className: "row" },
      btn("Renege claim", "claim_renege", () => ({ input: "claim_renege", seat: seat.value, cards: cards() })),
      btn("Throw in", "throw_in", () => ({ input: "throw_in", seat: seat.value, cards: cards() })),
      btn("Dealt hand", "hands", () => ({ input: "hands", [seat.value]: cards() })),
      btn("Sing with these", "sing", () => ({ input: "sing", seat: seat.value, cards: cards() })),
      mk("button", { textContent: "Clear", onclick: () => { af.picked = []; markPicker(); } }));
    box.append(mk("div", { className: "row" }, "Seat", seat, "shows", picked), grid, actions);
    return box;
  }

  function togglePick(card) {
    const i = af.picked.indexOf(card);
    if (i >= 0) af.picked.splice(i, 1); else af.picked.push(card);
    markPicker();
  }

  function markPicker() {
    const h = hand();
    const gone = new Set();
    for (const t of (h && h.tricks) || []) for (const p of t.plays || []) gone.add(p.card);
    for (const k of (h && h.kicks) || []) gone.add(k);
    for (const t of document.querySelectorAll("#af-picker .card")) {
      t.classList.toggle("picked", af.picked.includes(t.dataset.card));
      t.classList.toggle("gone", gone.has(t.dataset.card));
    }
    const shown = el("af-picked");
    if (!shown) return;
    shown.innerHTML = "";
    if (!af.picked.length) shown.textContent = "(tap the cards)";
    for (const c of af.picked) shown.appendChild(tile(c, "small"));
  }

  function faultsBox() {
    const box = mk("details", { className: "af-box" });
    box.appendChild(mk("summary", { textContent: "Misdeal, kick fault, penalty" }));
    const seat = sel([["", "(no seat)"], ...SEATS]);
    const team = sel([["", "(seat's team)"], "A", "B"]);
    const who = () => (seat.value ? { seat: seat.value } : (team.value ? { team: team.value } : {}));
    const misdeal = sel(MISDEALS), kick = sel(KICK_FAULTS), penalty = sel(PENALTIES);
    box.append(
      mk("div", { className: "row" }, "Offender", seat, team),
      mk("div", { className: "row" }, misdeal, btn("Misdeal", "misdeal", () => ({ input: "misdeal", cause: misdeal.value, ...who() }))),
      mk("div", { className: "row" }, kick, btn("Kick fault", "kick_irregularity", () => ({ input: "kick_irregularity", code: kick.value, ...who() }))),
      mk("div", { className: "row" }, penalty, btn("Penalty", "add_penalty", () => ({ input: "add_penalty", code: penalty.value, ...who() }))));
    return box;
  }

  // An undo takes back what the engine last did, maybe a count: the points counted so far are no
  // longer known from the messages, so the page shows the view's (the engine's) points instead.
  function onUndo() { af.counted = []; af.awards = null; af.choice = null; refreshSoon(); }

  function reset() { af.st = null; af.view = null; af.counted = []; af.awards = null; af.choice = null; af.picked = []; af.turn = null; }

  return { setState, onUpdate, onUndo, refreshSoon, inputs, render, reset, tile, bind(o) { Object.assign(af, o); } };
})();
