// The referee tablet: live table, scoreboard, foul banner with still, inputs, undo, log.
// Plain JS, no build step. Talks to /ws/tables/{id} (snapshot, catch-up by sequence number, live)
// and posts nothing over HTTP except through the websocket (inputs need the referee token).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { table: null, spec: null, ws: null, seq: null, snapshot: null, positions: {},
                scores: {}, lastFoul: null, retry: 0, kinds: [], turn: null, breakPts: null, standing: null };

function token() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) { localStorage.setItem("tableref-token", decodeURIComponent(m[1])); }
  return localStorage.getItem("tableref-token") || "";
}

async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

async function init() {
  $("token").value = token();
  const tables = await getJSON("/api/tables");
  const sel = $("table-select");
  sel.innerHTML = "";
  for (const t of tables) {
    const o = document.createElement("option");
    o.value = t.id; o.textContent = t.name || t.id; sel.appendChild(o);
  }
  sel.onchange = () => openTable(sel.value);
  if (tables.length) openTable(tables[0].id);
  else $("conn").textContent = "no tables configured";
}

async function openTable(id) {
  if (state.ws) { state.ws.onclose = null; state.ws.close(); }
  Object.assign(state, { table: id, seq: null, positions: {}, scores: {}, lastFoul: null, standing: null, snapshot: null, turn: null });
  AF.reset();
  AF.bind({ fetchState: () => getJSON(`/api/tables/${id}/state`), send });
  renderMatch(null);
  $("log").innerHTML = "";
  state.spec = await getJSON(`/api/tables/${id}/spec`);
  try { state.kinds = await getJSON(`/api/tables/${id}/input-kinds`); } catch (e) { state.kinds = []; }
  fillKinds();
  connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams();
  if (state.seq !== null) q.set("since", state.seq); else q.set("recent", 100);
  if (token()) q.set("token", token());
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${state.table}?${q}`);
  state.ws = ws;
  ws.onopen = () => { state.retry = 0; setPill("conn", "live", "ok"); };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
  ws.onclose = () => {
    setPill("conn", "reconnecting…", "warn");
    const delay = Math.min(10000, 500 * 2 ** state.retry++);
    setTimeout(connect, delay);
  };
}

function setPill(id, text, cls) { const el = $(id); el.textContent = text; el.className = "pill " + (cls || ""); }

function handle(m) {
  if (m.type === "snapshot") {
    if (state.seq === null) $("log").innerHTML = "";  // a reconnect keeps its log and gets what it missed
    state.snapshot = m; state.seq = m.seq; state.scores = m.scores || {}; state.positions = m.positions || {};
    setPill("role", m.can_write ? "referee" : "spectator", m.can_write ? "ok" : "");
    $("pipeline").textContent = m.pipeline === "truth" ? "demo: positions and events from the clip's truth file" : (m.pipeline ? `pipeline: ${m.pipeline}` : "");
    showGameView(); showStatus(m.status); fillKinds(); renderScores(); draw(); loadMatch(m.match);
    if (isAllFours()) AF.setState(m);
    return;
  }
  if (m.seq !== undefined && m.type !== "positions" && m.type !== "heartbeat" && m.type !== "status") state.seq = Math.max(state.seq || 0, m.seq);
  switch (m.type) {
    case "positions": state.positions = m.objects || {}; draw(); break;
    case "status": showStatus(m.status); break;
    case "update": onUpdate(m); break;
    case "question": showQuestion(m.question); addLog(`? ${m.question}`, "question"); break;
    case "notice": addLog(m.text || "notice"); if (m.undone && m.scores) { state.scores = m.scores; renderScores(); } if (isAllFours()) { if (m.reset) AF.reset(); if (m.undone) AF.onUndo(); else AF.refreshSoon(); } if (m.reset) { state.scores = {}; renderScores(); hideFoul(); renderMatch(null); $("break").textContent = ""; } break;
    case "event":
      addLog(`${m.event.t.toFixed(1)}s ${m.event.type} ${eventText(m.event)}`);
      if (m.event.type === "shot_start") hideFoul();  // the next shot: the call stands
      if (isAllFours()) AF.refreshSoon();
      break;
    case "input": addLog(`input: ${m.input}`); break;
    case "match": renderMatch(m); if (!m.replayed && m.decided && m.reason) addLog(`Match: ${m.reason}`, "score"); break;
    case "error": addLog(`error: ${m.error}`, "question"); break;
    default: break;
  }
}

// -- the match panel: a league match's frames of nine, a team match's tables -----------------------
async function loadMatch(matchId) {
  if (!matchId) { if (!(state.standing && state.standing.decided)) renderMatch(null); return; }
  try {
    renderMatch(await getJSON(`/api/matches/${encodeURIComponent(matchId)}/standing`));
  } catch (e) {
    renderMatch(null);  // a single game: the scoreboard says it all
  }
}

function renderMatch(s) {
  const panel = $("match-panel");
  state.standing = s;
  if (!s || (!s.league && !s.team)) { panel.hidden = true; return; }
  panel.hidden = false;
  const keys = s.league ? ["home", "away"] : ["A", "B"];
  const [a, b] = keys.map((k) => (s.sides && s.sides[k]) || k);
  $("match-title").textContent = `${a} v ${b}`;
  const status = s.complete ? "match over" : (s.decided ? "decided" : "playing");
  setPill("match-state", status, s.decided ? "ok" : "");
  const score = $("match-score"); score.textContent = "";
  const of = document.createElement("span"); of.className = "of";
  const rows = $("match-tables").querySelector("tbody"); rows.innerHTML = "";
  if (s.league) {
    const lg = s.league;
    score.append(`${lg.home_frames}–${lg.away_frames} `);
    of.textContent = `frames of ${lg.frames_total}`; score.append(of);
    const parts = [];
    if (lg.frame_in_play) parts.push(`frame ${lg.frame_in_play} in play`);
    else if (lg.remaining) parts.push(`${lg.played} played, ${lg.remaining} to come`);
    if (lg.shared_frames) parts.push(`${lg.shared_frames} shared`);
    if (s.reason && s.decided) parts.push(s.reason);
    $("match-detail").textContent = parts.join(" · ");
    $("match-tables").hidden = true;
  } else {
    const t = s.team;
    score.append(`${t.bullseyes.A}–${t.bullseyes.B} `);
    of.textContent = `bullseyes, ${t.needed} to win`; score.append(of);
    $("match-detail").textContent = s.decided && s.reason ? s.reason : "first to " + t.needed + "; at most " +
      ((t.tables[0] && t.tables[0].max_games) || 11) + " games a table (28)";
    $("match-col-a").textContent = a; $("match-col-b").textContent = b;
    for (const tt of t.tables) {
      const tr = document.createElement("tr");
      if (tt.closed) tr.className = "closed";
      const here = tt.table_id === state.table ? " (this table)" : "";
      for (const text of [`${tt.table}${here}`, String(tt.bullseyes.A), String(tt.bullseyes.B),
                          `${tt.games}/${tt.max_games}${tt.closed ? " closed" : ""}`]) {
        const td = document.createElement("td"); td.textContent = text; tr.appendChild(td);
      }
      rows.appendChild(tr);
    }
    $("match-tables").hidden = false;
  }
}

function eventText(e) {
  return [e.objects ? e.objects.join(" ") : "", e.where || ""].join(" ").trim() || "";
}

function showStatus(s) {
  if (!s) return;
  let text = s.state === "reconnecting" ? `source lost: retry ${s.attempt} in ${s.retry_in}s` : (s.error || s.state || "");
  const far = s.camera && s.camera.ok === false;  // the camera too far for this table's reading
  if (far) text += ` · camera too far: ${s.camera.px_per_mm} px/mm, needs ${s.camera.needed}`;
  setPill("source", text, s.state === "playing" && !far ? "ok" : (s.state === "error" ? "bad" : "warn"));
  $("source").title = (s.camera && s.camera.message) || "";
}

function onUpdate(u) {
  if (u.scores) { state.scores = u.scores; renderScores(); }
  if (u.kind === "foul") {
    state.lastFoul = u;
    $("foul-clause").textContent = u.clause ? `(rule ${u.clause})` : "";
    $("foul-text").textContent = u.text;
    const img = $("foul-still");
    if (u.still) { img.src = u.still; img.hidden = false; } else { img.hidden = true; }
    $("foul").hidden = false;
    addLog(`FOUL ${u.clause || ""}: ${u.text}`, "foul");
  } else if (u.kind === "instruction") {
    const d = document.createElement("div"); d.className = "instr"; d.textContent = u.text;
    $("instructions").prepend(d);
    while ($("instructions").children.length > 3) $("instructions").lastChild.remove();
    addLog(u.text);
  } else if (u.kind === "score" || u.kind === "break_banked" || u.kind === "break_lost") {
    if (u.kind !== "score") $("break").textContent = "";  // the break is over: banked or lost
    addLog(u.text, "score");
  } else if (u.kind === "break") {
    $("break").textContent = u.text;
  } else if (u.kind === "turn") {
    state.turn = u.player; renderScores(); addLog(u.text);
  } else {
    addLog(u.text);
  }
  if (isAllFours()) AF.onUpdate(u, state.turn);
}

function isAllFours() { return !!(state.snapshot && state.snapshot.game === "all-fours"); }

// A card table shows the board, the hand's points and the tallies instead of the drawn table.
function showGameView() {
  const cards = isAllFours();
  $("table").hidden = cards;
  for (const id of ["af-board", "af-points", "af-games"]) $(id).hidden = !cards;
  document.body.classList.toggle("all-fours", cards);
}

function renderScores() {
  if (isAllFours()) { AF.render(); return; }
  const box = $("scoreboard"); box.innerHTML = "";
  const names = Object.keys(state.scores);
  if (!names.length) { box.innerHTML = '<div class="score"><div class="who">score</div><div class="pts">0</div></div>'; return; }
  for (const who of names) {
    const d = document.createElement("div");
    d.className = "score" + (state.turn === who ? " turn" : "");
    d.innerHTML = `<div class="who"></div><div class="pts"></div>`;
    d.querySelector(".who").textContent = who; d.querySelector(".pts").textContent = state.scores[who];
    box.appendChild(d);
  }
}

function addLog(text, cls) {
  const li = document.createElement("li"); li.textContent = text; if (cls) li.className = cls;
  const log = $("log"); log.prepend(li);
  while (log.children.length > 200) log.lastChild.remove();
}

function hideFoul() { $("foul").hidden = true; }
function showQuestion(q) { $("question-text").textContent = q; $("question").hidden = false; }

function send(obj) {
  if (!state.ws || state.ws.readyState !== 1) { addLog("not connected", "question"); return; }
  state.ws.send(JSON.stringify(obj));
}

// Per-game quick inputs: what a referee taps most, with the data each input needs.
const QUICK = {
  "bar-billiards": [
    ["Push", { input: "push" }], ["Double hit", { input: "double_hit" }], ["Jump", { input: "jump" }],
    ["Not the tip", { input: "not_tip" }], ["Handling", { input: "handling" }], ["Deliberate", { input: "deliberate" }],
    ["Interference", { input: "interference" }], ["Re-break", { input: "break_option", choice: "rebreak" }],
    ["Play on", { input: "break_option", choice: "play_on" }], ["Bar dropped", { input: "bar_dropped" }],
  ],
  "up-and-down": [["Foul (general rules)", { input: "add_foul", code: "general_rules" }]],
  "colors": [["Foul (general rules)", { input: "add_foul", code: "general_rules" }]],
  "carroms": [
    ["Touched a piece", { input: "add_foul", code: "touched_piece" }], ["Not a flick", { input: "add_foul", code: "not_a_flick" }],
    ["Arm over foul line", { input: "add_foul", code: "arm_over_foul_line" }], ["Owed piece forgotten", { input: "owed_forgotten" }],
  ],
};

function button(label, onclick) { const b = document.createElement("button"); b.textContent = label; b.onclick = onclick; return b; }
function select(options) {
  const sel = document.createElement("select");
  for (const [value, text] of options) { const o = document.createElement("option"); o.value = value; o.textContent = text; sel.appendChild(o); }
  return sel;
}

function fillKinds() {
  const sel = $("input-kind"); sel.innerHTML = "";
  for (const k of state.kinds) { const o = document.createElement("option"); o.value = o.textContent = k; sel.appendChild(o); }
  const quick = $("game-inputs"); quick.innerHTML = "";
  const game = state.snapshot ? state.snapshot.game : null;
  const row = document.createElement("div"); row.className = "row";
  for (const [label, body] of QUICK[game] || []) row.appendChild(button(label, () => send(body)));
  quick.appendChild(row);
  if (game === "up-and-down") {
    // The call: cue ball (any ball may be the cue ball) and the called ball(s), in order.
    const balls = Array.from({ length: 16 }, (_, i) => [`ball-${i}`, i === 0 ? "zero" : String(i)]);
    const cue = select(balls), first = select(balls), second = select([["", "(none)"], ...balls]);
    first.value = "ball-1";
    const call = document.createElement("div"); call.className = "row";
    call.append("Call: cue", cue, "balls", first, second,
      button("Send call", () => send({ input: "called_shot", cue: cue.value, balls: [first.value, second.value].filter(Boolean) })));
    quick.appendChild(call);
  }
  if (game && game !== "all-fours") {
    // Resume a game already in progress: the table as the camera sees it now, and whose turn it is.
    const players = Object.keys(state.scores).length ? Object.keys(state.scores) : ["home", "away"];
    const who = select(players.map((p) => [p, p]));
    const resume = document.createElement("div"); resume.className = "row";
    resume.append("Resume here:", who, button("Set up from camera", () => {
      const onTable = {};
      for (const [id, o] of Object.entries(state.positions)) {
        if (o.kind !== "pin" && o.kind !== "card") onTable[id] = [o.x, o.y];
      }
      send({ input: "setup", on_table: onTable, player: who.value });
    }));
    quick.appendChild(resume);
  }
  if (game === "all-fours") AF.inputs(quick);  // begging, the deal, singing, hands shown, faults
}

// -- drawing the table from its spec (table mm) ------------------------------------------------
const COLOURS = { white: "#f4f4f0", red: "#d22", black: "#222", queen: "#e0245e", striker: "#c8d8ff",
  "ball-0": "#fafafa", "ball-1": "#f5c518", "ball-2": "#1f4fd1", "ball-3": "#d32", "ball-4": "#6a2c91",
  "ball-5": "#f07f16", "ball-6": "#167a3d", "ball-7": "#7a1f1f", "ball-8": "#111", "ball-9": "#f5c518",
  "ball-10": "#1f4fd1", "ball-11": "#d32", "ball-12": "#6a2c91", "ball-13": "#f07f16", "ball-14": "#167a3d", "ball-15": "#7a1f1f" };

function draw() {
  const spec = state.spec; if (!spec || isAllFours()) return;
  const c = $("table"); const g = c.getContext("2d");
  const pad = 20, W = c.width - 2 * pad, H = c.height - 2 * pad;
  const s = Math.min(W / spec.length_mm, H / spec.width_mm);
  const ox = pad + (W - spec.length_mm * s) / 2, oy = pad + (H - spec.width_mm * s) / 2;
  const X = (x) => ox + x * s, Y = (y) => oy + y * s;
  g.fillStyle = "#3b2a1a"; g.fillRect(ox - 14, oy - 14, spec.length_mm * s + 28, spec.width_mm * s + 28);
  const [r, gg, b] = spec.cloth_colour || [40, 110, 60];
  g.fillStyle = `rgb(${r},${gg},${b})`; g.fillRect(X(0), Y(0), spec.length_mm * s, spec.width_mm * s);
  g.strokeStyle = "rgba(255,255,255,.5)"; g.lineWidth = 1.5;
  if (spec.baulk_x) { g.beginPath(); g.moveTo(X(spec.baulk_x), Y(0)); g.lineTo(X(spec.baulk_x), Y(spec.width_mm)); g.stroke(); }
  if (spec.d_centre && spec.d_radius) { g.beginPath(); g.arc(X(spec.d_centre[0]), Y(spec.d_centre[1]), spec.d_radius * s, Math.PI / 2, 1.5 * Math.PI); g.stroke(); }
  for (const bl of spec.baselines || []) for (const line of [bl.front, bl.back]) { g.beginPath(); g.moveTo(X(line[0][0]), Y(line[0][1])); g.lineTo(X(line[1][0]), Y(line[1][1])); g.stroke(); }
  if (spec.centre_circle_radius) { g.beginPath(); g.arc(X(spec.length_mm / 2), Y(spec.width_mm / 2), spec.centre_circle_radius * s, 0, 7); g.stroke(); }
  if (spec.board) { g.strokeRect(X(spec.board[0][0]), Y(spec.board[0][1]), (spec.board[1][0] - spec.board[0][0]) * s, (spec.board[1][1] - spec.board[0][1]) * s); }
  g.font = "11px system-ui"; g.textAlign = "center";
  for (const h of spec.holes || []) {
    g.fillStyle = "#050505"; g.beginPath(); g.arc(X(h.x), Y(h.y), Math.max(3, h.radius * s), 0, 7); g.fill();
    if (h.value) { g.fillStyle = "#fff"; g.fillText(String(h.value), X(h.x), Y(h.y) - h.radius * s - 4); }
  }
  for (const [id, o] of Object.entries(state.positions)) {
    const rad = (spec.object_radius && (spec.object_radius[o.kind] || spec.object_radius.ball)) || 14;
    if (o.kind === "card") { g.fillStyle = "#fff"; g.fillRect(X(o.x) - 31 * s, Y(o.y) - 44 * s, 63 * s, 88 * s); g.fillStyle = "#000"; g.fillText(o.label || id.replace("card-", ""), X(o.x), Y(o.y)); continue; }
    if (o.kind === "pin") { g.fillStyle = o.status === "fallen" ? "#888" : "#ddd"; g.beginPath(); g.arc(X(o.x), Y(o.y), Math.max(3, 11 * s), 0, 7); g.fill(); continue; }
    g.fillStyle = COLOURS[o.label] || COLOURS[id] || COLOURS[o.kind] || "#eee";
    g.beginPath(); g.arc(X(o.x), Y(o.y), Math.max(4, rad * s), 0, 7); g.fill();
    g.strokeStyle = "rgba(0,0,0,.5)"; g.stroke();
    if (/^ball-(9|1[0-5])$/.test(o.label || id)) { g.fillStyle = "#fff"; g.fillRect(X(o.x) - rad * s, Y(o.y) - rad * s * 0.35, 2 * rad * s, rad * s * 0.7); }
  }
}

// -- wiring --------------------------------------------------------------------------------------
$("foul-confirm").onclick = hideFoul;
// Each engine's overrule names the call its own way (docs/referee/<game>.md).
function overruleBody(foul) {
  const game = state.snapshot ? state.snapshot.game : null;
  const code = foul && foul.code;
  if (game === "up-and-down" || game === "colors") return { input: "overrule", foul: false };
  if (game === "carroms") return code ? { input: "overrule", foul: code } : { input: "overrule" };
  if (game === "bar-billiards") return code ? { input: "overrule", code } : { input: "overrule" };
  return { input: "overrule" };
}
$("foul-overrule").onclick = () => { send(overruleBody(state.lastFoul)); hideFoul(); };
$("overrule").onclick = () => send(overruleBody(state.lastFoul));
$("undo").onclick = () => send({ input: "undo" });
$("question-ok").onclick = () => { $("question").hidden = true; };
$("input-send").onclick = () => {
  let data = {};
  const raw = $("input-data").value.trim();
  if (raw) { try { data = JSON.parse(raw); } catch (e) { addLog("input data must be JSON", "question"); return; } }
  send({ ...data, input: $("input-kind").value });
};
$("token-save").onclick = () => { localStorage.setItem("tableref-token", $("token").value.trim()); openTable(state.table); };
$("show-camera").onchange = (e) => { $("camera").hidden = !e.target.checked; };
setInterval(() => { if (!$("camera").hidden && state.table) $("camera").src = `/api/tables/${state.table}/frame.jpg?${Date.now()}`; }, 500);
init().catch((e) => setPill("conn", String(e), "bad"));
