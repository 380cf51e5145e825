// Tournament Steward — the venue page (issue 29). Read-only: it draws the page's JSON and keeps it live.
// Every text goes in with textContent (never as markup): a name like <script> or @everyone is shown as typed.
"use strict";

(function () {
  const body = document.body;
  const view = body.dataset.view; // "screen" (projector) or "phone"
  const base = location.pathname.replace(/\/screen\/?$/, "").replace(/\/$/, "");
  const lang = new URLSearchParams(location.search).get("lang");
  const query = lang ? "?lang=" + encodeURIComponent(lang) : "";
  const only = new URLSearchParams(location.search).get("only"); // the projector shows only these panels (?only=season)
  const storeKey = "venue-me:" + base;
  const state = { payload: null, raw: null, offset: 0, panel: 0, panels: [], tab: null, me: null, gone: false };
  try { state.me = localStorage.getItem(storeKey); } catch (e) { state.me = null; }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function words() { return state.payload ? state.payload.words : {}; }
  function number(value) {
    const locale = state.payload && state.payload.lang === "it" ? "it-IT" : "en-GB";
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  }
  function now() { return Date.now() + state.offset; }
  function duration(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const mm = (h ? String(m).padStart(2, "0") : String(m)), ss = String(s).padStart(2, "0");
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }
  function key(name) { return String(name).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }

  // ------------------------------------------------------------------------------------------------ clocks
  function clockText(clock) {
    const w = words();
    if (!clock) return { text: w.clock_none, cls: "clock none" };
    if (clock.status === "ended") return { text: w.clock_ended, cls: "clock ended" };
    if (clock.status === "paused") {
      const left = clock.remaining_seconds === null ? "" : " · " + duration(clock.remaining_seconds);
      return { text: w.clock_paused + left, cls: "clock paused" };
    }
    if (clock.status === "running" && clock.time_up_at) {
      const left = (Date.parse(clock.time_up_at) - now()) / 1000;
      if (left > 0) return { text: fill(w.clock_running, { time: duration(left) }), cls: "clock running" };
    }
    if (clock.status === "running" && !clock.time_up_at) return { text: w.clock_running.replace("{time}", "—"), cls: "clock running" };
    const ending = clock.ending === "sdadata" ? w.clock_sdadata : clock.ending === "firk" ? w.clock_firk : w.clock_time_up;
    return { text: ending, cls: "clock time-up" };
  }
  function clockNode(clock) {
    const shown = clockText(clock);
    const node = el("span", shown.cls, shown.text);
    node.dataset.clock = "1";
    node.venueClock = clock;
    return node;
  }
  function tick() {
    let changed = false;
    document.querySelectorAll("[data-clock]").forEach(function (node) {
      const shown = clockText(node.venueClock);
      if (node.textContent !== shown.text) node.textContent = shown.text;
      if (node.className !== shown.cls) { node.className = shown.cls; changed = true; }
    });
    if (changed && view === "screen") fitAgain(); // "Time is up" is longer than the time left: the panel is fitted again
  }

  // ------------------------------------------------------------------------------------------------ tables
  function reportNode(report) {
    const w = words();
    const text = {
      waiting: w.report_waiting,
      entered: fill(w.report_entered, { signed: report.signed, seats: report.seats }),
      signed: w.report_signed,
      countersigned: w.report_countersigned,
    }[report.status] || "";
    return el("span", "report " + report.status, text);
  }
  function seatNode(seat) {
    const li = el("li", "seat");
    if (state.me && key(seat.name) === key(state.me)) li.classList.add("me");
    li.appendChild(el("span", "seat-name", seat.name));
    const group = seat.team || seat.club;
    if (group) li.appendChild(el("span", "seat-club", group));
    if (seat.result) li.appendChild(el("span", "seat-result", seat.result.rank + "° · " + number(seat.result.tournament_points !== null ? seat.result.tournament_points : seat.result.table_points)));
    return li;
  }
  function tableNode(table, withState) {
    const w = words();
    const card = el("article", "table-card");
    card.id = "table-" + table.number;
    card.dataset.table = table.number;
    const head = el("header", "table-head");
    head.appendChild(el("h3", "table-number", fill(w.table, { number: table.number })));
    if (withState) {
      const reported = table.report && table.report.status !== "waiting";
      if (table.clock || !reported) head.appendChild(clockNode(table.clock)); // a reported game needs no "not started"
      head.appendChild(reportNode(table.report));
    }
    card.appendChild(head);
    const seats = el("ol", "seats");
    table.seats.forEach(function (seat) { seats.appendChild(seatNode(seat)); });
    card.appendChild(seats);
    if (withState && table.clock && table.clock.recovery_minutes > 0) {
      card.appendChild(el("p", "recovery", fill(w.recovery, { minutes: table.clock.recovery_minutes })));
    }
    return card;
  }
  function roundLabel(round) {
    const w = words();
    if (!round) return w.no_round;
    if (round.kind === "semifinal") return w.semifinal;
    if (round.kind === "final") return w.final;
    return fill(w.round, { number: round.number });
  }
  function tablesPanel(tables) {
    const grid = el("section", "tables-grid");
    const n = tables.length;
    const cols = view === "screen" ? (n <= 1 ? 1 : n <= 4 ? 2 : n <= 9 ? 3 : n <= 16 ? 4 : n <= 25 ? 5 : 6) : 1;
    grid.classList.add("cols-" + cols);
    tables.forEach(function (t) { grid.appendChild(tableNode(t, true)); });
    return grid;
  }

  // ------------------------------------------------------------------------------------------------ standings
  function standingsPanel(lines) {
    const w = words();
    const wrap = el("section", "standings");
    if (!lines.length) { wrap.appendChild(el("p", "empty", w.no_standings)); return wrap; }
    const table = el("table", "standings-table");
    const head = el("tr");
    [["rank", "col-rank"], ["player", "col-name"], ["points", "col-points"], ["games", "col-games"]].forEach(function (c) {
      head.appendChild(el("th", c[1], w[c[0]]));
    });
    const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    const tbody = el("tbody");
    lines.forEach(function (line) {
      const tr = el("tr", "line " + line.standing);
      if (state.me && key(line.name) === key(state.me)) tr.classList.add("me");
      tr.appendChild(el("td", "col-rank", line.rank));
      const name = el("td", "col-name");
      name.appendChild(el("span", "line-name", line.name));
      const group = line.team || line.club;
      if (group) name.appendChild(el("span", "line-club", group));
      if (line.standing !== "active") name.appendChild(el("span", "line-standing", w[line.standing] || ""));
      tr.appendChild(name);
      tr.appendChild(el("td", "col-points", number(line.points)));
      tr.appendChild(el("td", "col-games", line.games));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    return wrap;
  }

  // ------------------------------------------------------------------------------------------ classification
  function done(data) { return data.classification && data.classification.complete ? data.classification : null; }
  function stageNote(cls, line) {
    const w = words();
    if (cls.format === "standings") return "";
    if (line.table_place === null) {
      return line.stage === "qualifying" && line.qualifying_rank !== null ? fill(w.stage_qualifying, { rank: line.qualifying_rank }) : "";
    }
    const values = { place: line.table_place, table: line.table, round: line.round };
    if (line.stage === "final") return fill(w.stage_final, values);
    if (line.stage === "semifinal") return fill(w.stage_semifinal, values);
    return fill(w.stage_knockout, values);
  }
  function championNode(cls) {
    const w = words();
    const box = el("div", "champion");
    box.appendChild(el("span", "champion-cup", "★")); // a star every font has (an emoji may not)
    const text = el("div", "champion-text");
    text.appendChild(el("span", "champion-label", cls.champions.length > 1 ? w.champion_many : w.champion_one));
    text.appendChild(el("span", "champion-name", cls.champions.join(" · ")));
    box.appendChild(text);
    return box;
  }
  function classificationPanel(cls, lines) {
    const w = words();
    const wrap = el("section", "standings classification");
    const table = el("table", "standings-table");
    const head = el("tr");
    const points = cls.format === "finals" ? "points_qualifying" : "points"; // the qualifying rounds' points
    [["rank", "col-rank"], ["player", "col-name"], [points, "col-points"]].forEach(function (c) {
      head.appendChild(el("th", c[1], w[c[0]]));
    });
    const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    const tbody = el("tbody");
    lines.forEach(function (line) {
      const tr = el("tr", "line place-" + line.place);
      tr.dataset.player = line.name;
      if (state.me && key(line.name) === key(state.me)) tr.classList.add("me");
      tr.appendChild(el("td", "col-rank", line.place === null ? "—" : line.place));
      const name = el("td", "col-name");
      name.appendChild(el("span", "line-name", line.name));
      const note = stageNote(cls, line);
      if (note) name.appendChild(el("span", "line-stage", note));
      const group = line.team || line.club;
      if (group) name.appendChild(el("span", "line-club", group));
      tr.appendChild(name);
      tr.appendChild(el("td", "col-points", number(line.points)));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    return wrap;
  }

  // ------------------------------------------------------------------------------------------------ bracket
  function bracketPanel(bracket, cls) {
    const w = words();
    const wrap = el("section", "bracket");
    bracket.rounds.forEach(function (round) {
      const col = el("div", "bracket-round");
      col.appendChild(el("h2", "bracket-title", roundLabel(round)));
      if (round.direct_finalists && round.direct_finalists.length) {
        col.appendChild(el("p", "direct", fill(w.direct_finalists, { names: round.direct_finalists.join(", ") })));
      }
      round.tables.forEach(function (t) { col.appendChild(tableNode(t, false)); });
      if (round.kind === "final" && cls) col.appendChild(championNode(cls)); // the final names the champion
      wrap.appendChild(col);
    });
    return wrap;
  }

  // ------------------------------------------------------------------------------------------------ season
  const SCREEN_SEASON_COLUMNS = 6; // the projector shows the latest tournaments' points; the phone lists them all
  function seasonMove(line) {
    const w = words();
    if (line.previous_rank === null) return el("td", "col-move new", w.season_new);
    const moved = line.previous_rank - line.rank;
    if (moved > 0) return el("td", "col-move up", "▲" + moved);
    if (moved < 0) return el("td", "col-move down", "▼" + (-moved));
    return el("td", "col-move same", "=");
  }
  function seasonPoints(line, i) {
    const points = line.by_tournament[i];
    if (points === null) return "—";
    return line.counted[i] ? number(points) : "(" + number(points) + ")";
  }
  function seasonPanel(season, lines) {
    const w = words();
    const wrap = el("section", "season");
    if (!lines.length) { wrap.appendChild(el("p", "empty", w.season_empty)); return wrap; }
    const n = season.tournaments.length;
    const columns = [];
    if (view === "screen") for (let i = Math.max(0, n - SCREEN_SEASON_COLUMNS); i < n; i++) columns.push(i);
    const table = el("table", "standings-table season-table");
    const head = el("tr");
    head.appendChild(el("th", "col-rank", w.rank));
    const moves = season.tournaments.length >= 2; // the movement since the previous tournament of the season
    if (moves) head.appendChild(el("th", "col-move", w.movement));
    head.appendChild(el("th", "col-name", w.player));
    columns.forEach(function (i) {
      const th = el("th", "col-t" + (i === season.current ? " current" : ""), fill(w.season_tournament, { number: i + 1 }));
      th.title = season.tournaments[i];
      head.appendChild(th);
    });
    head.appendChild(el("th", "col-points", w.total));
    const thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    const tbody = el("tbody");
    lines.forEach(function (line) {
      const tr = el("tr", "line");
      tr.dataset.player = line.name;
      if (state.me && key(line.name) === key(state.me)) tr.classList.add("me");
      tr.appendChild(el("td", "col-rank", line.rank));
      if (moves) tr.appendChild(seasonMove(line));
      const name = el("td", "col-name");
      name.appendChild(el("span", "line-name", line.name));
      if (line.club) name.appendChild(el("span", "line-club", line.club));
      if (view !== "screen") {
        const each = season.tournaments.map(function (t, i) {
          return fill(w.season_tournament, { number: i + 1 }) + " " + seasonPoints(line, i);
        });
        name.appendChild(el("span", "line-season", each.join(" · ")));
      }
      tr.appendChild(name);
      columns.forEach(function (i) {
        tr.appendChild(el("td", "col-t" + (i === season.current ? " current" : "") + (line.counted[i] ? "" : " dropped"),
          seasonPoints(line, i)));
      });
      tr.appendChild(el("td", "col-points season-points", number(line.points)));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    wrap.appendChild(table);
    return wrap;
  }
  function seasonLegend() { return el("p", "season-legend", words().season_legend); }

  // ------------------------------------------------------------------------------------------------ the views
  const SCREEN_TABLES = 25, SCREEN_LINES = 20;
  function chunks(list, size) {
    const out = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out.length ? out : [[]];
  }
  function columns(part, draw) { // a page of lines: one column up to SCREEN_LINES, else two of even length
    const both = el("div", "standings-columns" + (part.length > SCREEN_LINES ? "" : " one"));
    chunks(part, Math.ceil(part.length / (part.length > SCREEN_LINES ? 2 : 1)) || 1).forEach(function (col) {
      both.appendChild(draw(col));
    });
    return both;
  }
  function screenPanels(data) {
    const w = words();
    const panels = [];
    const tables = data.round ? data.round.tables : [];
    if (tables.length) chunks(tables, SCREEN_TABLES).forEach(function (part) {
      panels.push({ kind: "tables", title: w.tables, node: function () { return tablesPanel(part); }, seconds: 25 });
    });
    const cls = done(data);
    if (cls) { // the prize-giving: the champion and the final places first
      const placed = cls.lines.filter(function (l) { return l.place !== null; });
      chunks(placed, SCREEN_LINES * 2).forEach(function (part, i) {
        panels.push({ kind: "classification", title: w.classification, node: function () {
          const out = document.createDocumentFragment();
          if (!i) out.appendChild(championNode(cls));
          out.appendChild(columns(part, function (col) { return classificationPanel(cls, col); }));
          return out;
        }, seconds: i ? 15 : 25 });
      });
    }
    const lines = data.standings.lines;
    chunks(lines, SCREEN_LINES * 2).forEach(function (part, i) {
      if (!part.length && i) return;
      panels.push({ kind: "standings", title: cls ? w.qualifying_standings : w.standings, node: function () {
        return columns(part, standingsPanel);
      }, seconds: 15 });
    });
    if (data.bracket) panels.push({ kind: "bracket", title: w.bracket, node: function () { return bracketPanel(data.bracket, cls); }, seconds: 15 });
    const season = data.season;
    if (season) chunks(season.lines, SCREEN_LINES * 2).forEach(function (part, i) {
      if (!part.length && i) return;
      panels.push({ kind: "season", title: w.season + " · " + season.name, node: function () {
        const out = document.createDocumentFragment();
        out.appendChild(columns(part, function (col) { return seasonPanel(season, col); }));
        out.appendChild(seasonLegend());
        return out;
      }, seconds: 15 });
    });
    const chosen = panels.filter(function (p) { return p.kind === only; });
    return chosen.length ? chosen : panels;
  }
  function drawScreen() {
    const data = state.payload.data;
    state.panels = screenPanels(data);
    if (state.panel >= state.panels.length) state.panel = 0;
    const main = document.getElementById("main");
    clear(main);
    const panel = state.panels[state.panel];
    main.appendChild(el("h2", "panel-title", panel.title));
    const box = el("div", "panel-body panel-" + panel.kind);
    box.appendChild(panel.node());
    main.appendChild(box);
    fitPanel(box);
  }

  // ------------------------------------------------------------------------------------------------ scale to fill
  // The projector draws its panel in the largest type with which it fits the screen (issue 44): every card and list
  // whole, no name cut or wrapped, nothing wider than the screen. The final alone reads from the back of the room,
  // 25 tables get a smaller type. The seats and the lines may put the club under the name ("stacked") when that
  // allows a larger type. A long club may end in … but keeps its first FIT_CLUB_EM em, unless that costs more than a
  // quarter of the type the names alone allow and the type is not comfortable anyway (FIT_COMFORT); then the clubs
  // give way. Sizes in hundredths of the screen's height. A redraw of the same panel (a new snapshot) keeps the size
  // found last time while it still fits, so a busy evening costs one check per change, not a search.
  const FIT_MIN = 1.3, FIT_MAX = 12, FIT_COMFORT = 4, FIT_STEPS = 9, FIT_MARGIN = 0.97, FIT_CLUB_EM = 6,
    FIT_CLUBS_COST = 0.75;
  const FIT_BOXES = ".tables-grid, .standings-columns, .bracket, .table-card, .champion";
  const FIT_NAMES = ".seat-name, .seat-result, .table-number, .line-name, .champion-name, .bracket-title, th";
  const FIT_CLUBS = ".seat-club, .line-club, .line-stage";
  function within(node) { return node.scrollHeight <= node.clientHeight + 1 && node.scrollWidth <= node.clientWidth + 1; }
  function whole(node) {
    if (node.getClientRects().length > 1) return false; // broken onto a second line
    if (getComputedStyle(node).display === "inline") {
      const r = node.getBoundingClientRect(), box = node.parentElement.getBoundingClientRect();
      return r.right <= box.right + 1 && r.left >= box.left - 1;
    }
    return node.scrollWidth <= node.clientWidth + 1;
  }
  function readable(node) { // a club whole, or at least FIT_CLUB_EM of it shown before its …
    const shown = FIT_CLUB_EM * parseFloat(getComputedStyle(node).fontSize);
    if (getComputedStyle(node).display === "inline") {
      const r = node.getBoundingClientRect(), box = node.parentElement.getBoundingClientRect();
      return r.right <= box.right + 1 || box.right - r.left >= shown;
    }
    return node.scrollWidth <= node.clientWidth + 1 || node.clientWidth >= shown;
  }
  function every(box, selector, check) { return Array.prototype.every.call(box.querySelectorAll(selector), check); }
  function fits(box, clubs) {
    return within(box) && every(box, FIT_BOXES, within) && every(box, FIT_NAMES, whole) &&
      (!clubs || every(box, FIT_CLUBS, readable));
  }
  function largest(box, clubs, unit) { // the largest size that fits, 0 if even the smallest does not
    let lo = FIT_MIN * unit, hi = FIT_MAX * unit;
    box.style.fontSize = hi + "px";
    if (fits(box, clubs)) return hi;
    box.style.fontSize = lo + "px";
    if (!fits(box, clubs)) return 0;
    for (let i = 0; i < FIT_STEPS; i++) {
      const mid = (lo + hi) / 2;
      box.style.fontSize = mid + "px";
      if (fits(box, clubs)) lo = mid; else hi = mid;
    }
    return lo;
  }
  let fitsFound = {}; // by panel (its kind, lines and screen size): the size found last time
  function fitPanel(box) {
    const unit = window.innerHeight / 100;
    const key = box.className + ":" + box.querySelectorAll(".seat, .line").length + ":" + innerWidth + "×" + innerHeight;
    const last = fitsFound[key];
    if (last) {
      box.classList.toggle("stacked", last.stacked);
      box.style.fontSize = last.size + "px";
      if (fits(box, last.clubs)) { fitted(box, last); return; }
    }
    const layouts = [false, true];
    const found = [];
    layouts.forEach(function (stacked) {
      box.classList.toggle("stacked", stacked);
      found.push({ stacked: stacked, clubs: true, size: largest(box, true, unit) });
      found.push({ stacked: stacked, clubs: false, size: largest(box, false, unit) });
    });
    function best(clubs) {
      return found.filter(function (f) { return f.clubs === clubs; })
        .reduce(function (a, b) { return b.size > a.size ? b : a; });
    }
    const all = best(true), names = best(false);
    const chosen = all.size > 0 && all.size >= Math.min(FIT_CLUBS_COST * names.size, FIT_COMFORT * unit) ? all : names;
    const fit = { stacked: chosen.stacked, clubs: chosen.clubs,
      size: chosen.size ? chosen.size * FIT_MARGIN : FIT_MIN * unit };
    fitsFound[key] = fit;
    box.classList.toggle("stacked", fit.stacked);
    box.style.fontSize = fit.size + "px";
    fitted(box, fit);
  }
  function fitted(box, fit) {
    box.classList.add("fitted");
    box.dataset.fit = (fit.clubs ? "clubs" : "names") + (fit.stacked ? " stacked" : "");
  }
  let refit = 0;
  function fitAgain() { // a resized window, a clock that changed its state: the panel fitted anew once it settles
    clearTimeout(refit);
    refit = setTimeout(function () {
      const box = document.querySelector(".panel-body");
      fitsFound = {};
      if (box) { box.classList.remove("fitted"); fitPanel(box); }
    }, 150);
  }
  function cycle() {
    if (state.payload && state.panels.length > 1) {
      state.panel = (state.panel + 1) % state.panels.length;
      drawScreen();
    }
    const seconds = state.panels.length ? state.panels[state.panel].seconds : 10;
    setTimeout(cycle, seconds * 1000);
  }

  function tableOf(data, name) {
    if (!data.round || !name) return null;
    return data.round.tables.find(function (t) {
      return t.seats.some(function (s) { return key(s.name) === key(name); });
    }) || null;
  }
  function everyone(data) {
    const names = new Map();
    (data.round ? data.round.tables : []).forEach(function (t) { t.seats.forEach(function (s) { names.set(key(s.name), s.name); }); });
    data.standings.lines.forEach(function (l) { if (!names.has(key(l.name))) names.set(key(l.name), l.name); });
    return Array.from(names.values()).sort(function (a, b) { return key(a).localeCompare(key(b)); });
  }
  function choose(name) {
    state.me = name;
    try { if (name) localStorage.setItem(storeKey, name); else localStorage.removeItem(storeKey); } catch (e) { /* private mode */ }
    document.getElementById("find-input").value = "";
    drawPhone();
    if (name) { const mine = document.getElementById("mine"); if (mine.scrollIntoView) mine.scrollIntoView({ block: "start" }); }
  }
  function drawFind() {
    const data = state.payload.data;
    const input = document.getElementById("find-input");
    const results = document.getElementById("find-results");
    clear(results);
    const typed = key(input.value.trim());
    if (!typed) return;
    everyone(data).filter(function (n) { return key(n).indexOf(typed) !== -1; }).slice(0, 8).forEach(function (name) {
      const li = el("li");
      const button = el("button", "pick", name);
      button.type = "button";
      button.addEventListener("click", function () { choose(name); });
      li.appendChild(button);
      results.appendChild(li);
    });
  }
  function drawPhone() {
    const w = words();
    const data = state.payload.data;
    const cls = done(data);
    const mine = document.getElementById("mine");
    clear(mine);
    if (state.me) {
      mine.hidden = false;
      const head = el("div", "mine-head");
      head.appendChild(el("h2", "mine-title", w.my_table + " · " + state.me));
      const forget = el("button", "not-me", w.not_me);
      forget.type = "button";
      forget.addEventListener("click", function () { choose(null); });
      head.appendChild(forget);
      mine.appendChild(head);
      const table = tableOf(data, state.me);
      mine.appendChild(table ? tableNode(table, true) : el("p", "empty", w.not_seated));
      const placed = cls && cls.lines.find(function (l) { return key(l.name) === key(state.me) && l.place !== null; });
      const line = data.standings.lines.find(function (l) { return key(l.name) === key(state.me); });
      if (placed) mine.appendChild(el("p", "mine-rank mine-final", fill(w.final_place, { rank: placed.place })));
      else if (line) mine.appendChild(el("p", "mine-rank", fill(w.place, { rank: line.rank }) + " · " + number(line.points) + " " + w.points));
      const ours = data.season && data.season.lines.find(function (l) { return key(l.name) === key(state.me); });
      if (ours) mine.appendChild(el("p", "mine-rank mine-season", fill(w.season_place, { rank: ours.rank }) + " · " + number(ours.points) + " " + w.points));
    } else {
      mine.hidden = true;
    }
    document.getElementById("find-label").textContent = w.find;
    document.getElementById("find-input").placeholder = w.find_hint;
    drawFind();
    const tabs = document.getElementById("tabs");
    clear(tabs);
    const names = [["tables", w.tables], ["standings", cls ? w.qualifying_standings : w.standings]];
    if (cls) names.unshift(["classification", w.classification]);
    if (data.season) names.push(["season", w.season]);
    if (data.bracket) names.push(["bracket", w.bracket]);
    if (!names.some(function (n) { return n[0] === state.tab; })) state.tab = cls ? "classification" : "tables";
    names.forEach(function (n) {
      const b = el("button", "tab" + (state.tab === n[0] ? " active" : ""), n[1]);
      b.type = "button";
      b.dataset.tab = n[0];
      b.addEventListener("click", function () { state.tab = n[0]; drawPhone(); });
      tabs.appendChild(b);
    });
    const main = document.getElementById("main");
    clear(main);
    if (state.tab === "classification" && cls) {
      main.appendChild(championNode(cls));
      main.appendChild(classificationPanel(cls, cls.lines.filter(function (l) { return l.place !== null; })));
    }
    else if (state.tab === "standings") main.appendChild(standingsPanel(data.standings.lines));
    else if (state.tab === "season" && data.season) {
      main.appendChild(el("h2", "season-title", w.season + " · " + data.season.name));
      main.appendChild(seasonPanel(data.season, data.season.lines));
      main.appendChild(seasonLegend());
    }
    else if (state.tab === "bracket" && data.bracket) main.appendChild(bracketPanel(data.bracket, cls));
    else if (data.round) main.appendChild(tablesPanel(data.round.tables));
    else main.appendChild(el("p", "empty", w.no_round));
  }

  function draw() {
    if (!state.payload) return;
    const data = state.payload.data;
    document.getElementById("name").textContent = data.tournament.name;
    document.title = data.tournament.name;
    document.documentElement.lang = state.payload.lang;
    document.getElementById("round-label").textContent = roundLabel(data.round);
    if (view === "screen") drawScreen(); else drawPhone();
    body.dataset.version = String(state.payload.version);
  }
  function setStatus(live) {
    const node = document.getElementById("status");
    const w = words();
    if (state.gone) { node.textContent = w.gone || ""; node.className = "status gone"; return; }
    node.textContent = live ? (w.live || "") : (w.reconnecting || "");
    node.className = "status " + (live ? "live" : "offline");
  }

  // ------------------------------------------------------------------------------------------------ live
  function receive(text) {
    if (text === state.raw) { setStatus(true); return; } // the stream's first snapshot repeats the first poll's
    const payload = JSON.parse(text);
    if (state.payload && payload.version < state.payload.version) return;
    state.payload = payload;
    state.raw = text;
    draw();
    setStatus(true);
  }
  function poll() {
    return fetch(base + "/data" + query, { cache: "no-store" }).then(function (r) {
      if (r.status === 404) { state.gone = true; stopPolling(); setStatus(false); return; }
      if (!r.ok) { setStatus(false); return; } // 503: the server is busy or starting; the next poll tries again
      const server = Number(r.headers.get("X-Server-Time"));
      if (server) state.offset = server - Date.now();
      return r.text().then(receive);
    }).catch(function () { setStatus(false); });
  }
  // The stream is refused when the server has as many open as it takes (503) or is restarting. Then the page polls
  // its JSON every POLL_MS and tries the stream again after a pause that doubles up to RETRY_MAX_MS, with a random
  // part so a room of phones does not come back at the same second.
  const POLL_MS = 5000, RETRY_MIN_MS = 3000, RETRY_MAX_MS = 60000;
  let source = null, polling = null, retryMs = RETRY_MIN_MS;
  function startPolling() { if (!polling && !state.gone) polling = setInterval(poll, POLL_MS); }
  function stopPolling() { if (polling) { clearInterval(polling); polling = null; } }
  function connect() {
    if (state.gone) return;
    if (typeof EventSource === "undefined") { startPolling(); return; }
    source = new EventSource(base + "/events" + query);
    source.addEventListener("snapshot", function (e) { receive(e.data); });
    source.addEventListener("time", function (e) { state.offset = Number(e.data) - Date.now(); });
    source.addEventListener("gone", function () { state.gone = true; source.close(); stopPolling(); setStatus(false); });
    source.addEventListener("open", function () { retryMs = RETRY_MIN_MS; stopPolling(); setStatus(true); });
    source.addEventListener("error", function () {
      if (source.readyState !== EventSource.CLOSED) { setStatus(false); return; } // the browser reconnects by itself
      source.close();
      poll();
      startPolling();
      const wait = retryMs / 2 + Math.random() * retryMs / 2;
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      setTimeout(connect, wait);
    });
  }

  if (view === "phone") {
    document.getElementById("find-input").addEventListener("input", function () { if (state.payload) drawFind(); });
  } else {
    setTimeout(cycle, 25000);
    window.addEventListener("resize", fitAgain);
  }
  setInterval(tick, 1000);
  poll().then(connect);
})();
