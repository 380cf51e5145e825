// Tournament Steward — the report page: the players of a table enter its final situation on a map by taps (or its
// table points, or Ricochet Robots tokens) from their phones, several at once, and submit it.
// Every text goes in with textContent (never as markup); styles only through classes and the CSSOM (strict CSP).
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const base = location.pathname.replace(/\/+$/, "");
  const lang = new URLSearchParams(location.search).get("lang");
  const query = lang ? "?lang=" + encodeURIComponent(lang) : "";
  const R = 38, HIT = 52, RING = 50; // map units: the territory's disc, its invisible tap target, the selection ring
  const NEAR = 95; // a tap on the sea picks the nearest territory closer than this (map units)...
  const NEAR_PX = 26; // ...or than this many screen pixels, whichever is larger
  const DEBOUNCE_MS = 400, POLL_MS = 3000, RETRY_MS = 2000;

  const st = {
    doc: null,        // the server's latest state (never a lower version)
    queue: [],        // ops not sent yet
    inflight: [],     // ops sent, no answer yet
    shape: "",        // what the built page depends on: rebuilt when it changes
    tab: null,        // "map" or "points"
    brush: null,      // null (select only), "none" (eraser) or a seat index
    sel: null,        // {index, fresh, text}: the selected territory and the armies being typed
    zoom: -1,         // -1 the whole map, else the continent's index
    closed: false,
    messageKind: "",
  };
  const ui = {};      // the built nodes

  // ------------------------------------------------------------------------------------------------ helpers
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }
  function button(cls, text, id) {
    const b = el("button", cls, text);
    b.type = "button";
    if (id) b.id = id;
    return b;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function setText(node, text) { if (!node) return; text = text === null || text === undefined ? "" : String(text); if (node.textContent !== text) node.textContent = text; }
  function fill(template, values) {
    return String(template === undefined || template === null ? "" : template).replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function words() { return st.doc ? st.doc.words || {} : {}; }
  function number(value) {
    if (value === null || value === undefined || value === "") return "";
    if (typeof value !== "number") return String(value);
    const locale = st.doc && st.doc.lang === "it" ? "it-IT" : "en-GB";
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
  }
  function copy(obj) { return JSON.parse(JSON.stringify(obj || {})); }
  function short(name) {
    const parts = String(name).trim().split(/\s+/);
    if (parts.length < 2) return parts[0] || "";
    return parts[0] + " " + parts[parts.length - 1].charAt(0) + ".";
  }
  function brushName(seat) { // the first name, with the surname's initial when two players share it
    const first = String(seat.name).trim().split(/\s+/)[0];
    const twin = st.doc.seats.some(function (o) { return o.seat !== seat.seat && String(o.name).trim().split(/\s+/)[0] === first; });
    return twin ? short(seat.name) : first;
  }
  function shortContinent(name) {
    const parts = String(name).trim().split(/\s+/);
    if (parts.length > 1) return parts[0].charAt(0).toUpperCase() + "." + parts[parts.length - 1].slice(0, 2);
    return parts[0].length <= 4 ? parts[0] : parts[0].slice(0, 3);
  }

  // ------------------------------------------------------------------------------------------------ the view
  // What the screen shows: the server's state with the ops not yet answered applied on top of its draft.
  function applyOp(draft, op) {
    const k = op.seat === null || op.seat === undefined ? null : String(op.seat);
    if (op.t === "territory") {
      if (op.seat === null) delete draft.territories[op.name];
      else draft.territories[op.name] = { seat: op.seat, armies: op.armies };
    } else if (op.t === "clear") {
      ["territories", "objectives", "status", "achieved", "frozen", "cards", "points"].forEach(function (f) { draft[f] = {}; });
    } else if (op.t === "objective") {
      if (op.name === null) delete draft.objectives[k]; else draft.objectives[k] = op.name;
    } else if (op.t === "status" || op.t === "achieved" || op.t === "frozen" || op.t === "cards" || op.t === "points") {
      draft[op.t][k] = op.t === "status" ? op.status : op.value;
    }
  }
  function view() {
    const doc = st.doc;
    const draft = copy(doc.draft);
    ["territories", "objectives", "status", "achieved", "frozen", "cards", "points"].forEach(function (f) {
      if (!draft[f] || typeof draft[f] !== "object") draft[f] = {};
    });
    st.inflight.concat(st.queue).forEach(function (op) { applyOp(draft, op); });
    return draft;
  }
  function editable() {
    const s = st.doc && st.doc.table.status;
    return !st.closed && (s === "open" || s === "entered");
  }
  function seatOf(index) { return st.doc.seats.find(function (s) { return s.seat === index; }) || null; }
  function previewSeat(index) {
    const p = st.doc.preview && st.doc.preview.seats;
    return (p || []).find(function (s) { return s.seat === index; }) || null;
  }

  // ------------------------------------------------------------------------------------------------ edits
  function opKey(op) {
    if (op.t === "territory") return "t:" + op.name;
    if (op.t === "clear") return null;
    return op.t + ":" + op.seat;
  }
  function send(op) {
    if (!editable()) return;
    const key = opKey(op);
    if (key) { // the last write of the same thing wins: drop an older one still waiting (not past a "clear")
      for (let i = st.queue.length - 1; i >= 0; i--) {
        if (st.queue[i].t === "clear") break;
        if (opKey(st.queue[i]) === key) { st.queue.splice(i, 1); break; }
      }
    }
    st.queue.push(op);
    pump();
    update();
  }
  function pump() {
    if (st.inflight.length || !st.queue.length || st.closed) return;
    st.inflight = st.queue.splice(0);
    const batch = st.inflight;
    fetch(base + "/edit" + query, {
      method: "POST", headers: { "Content-Type": "application/json" }, cache: "no-store",
      body: JSON.stringify({ ops: batch }),
    }).then(function (r) {
      if (r.status === 404) { st.inflight = []; shut(); return; }
      if (r.status === 429 || r.status >= 500) { // too fast for the table's budget, or the server busy: nothing was
        // applied; keep the ops and send them again when the server says (they set values, a repeat is harmless)
        const wait = Math.max(1, Number(r.headers.get("Retry-After")) || 0) * 1000;
        st.queue = batch.concat(st.queue);
        st.inflight = [];
        setTimeout(pump, Math.min(Math.max(wait, RETRY_MS / 2), 10000));
        return;
      }
      return r.json().catch(function () { return {}; }).then(function (data) {
        st.inflight = [];
        if (r.ok) {
          adopt(data, true);
          if (live) setStatus("live");
          if (!st.queue.length) note(words().saved);
        } else {
          showError(data && data.error ? data.error : String(r.status));
          if (r.status === 410) refresh();
          update();
        }
        pump();
      });
    }).catch(function () { // the network failed: keep the ops and try again (they set values, so a repeat is harmless)
      st.queue = batch.concat(st.queue);
      st.inflight = [];
      setStatus("offline");
      setTimeout(pump, RETRY_MS);
    });
  }
  function idle() { // resolves when every edit has been answered
    return new Promise(function (resolve) {
      (function wait() { if (!st.queue.length && !st.inflight.length) resolve(); else setTimeout(wait, 80); })();
    });
  }

  // ------------------------------------------------------------------------------------------------ status line
  let statusTimer = null;
  function setStatus(kind, text) {
    const node = document.getElementById("status");
    if (!node) return;
    const w = words();
    if (st.closed) { kind = "gone"; text = ui.banner ? "" : w.closed; } // the banner says it, in large
    if (statusTimer && kind !== "error") return; // an error stays readable for a few seconds
    node.className = "status " + kind;
    node.textContent = text !== undefined ? text : kind === "live" ? (w.live || "") : (w.reconnecting || "");
  }
  function showError(text) {
    if (statusTimer) clearTimeout(statusTimer);
    statusTimer = null;
    setStatus("error", text);
    statusTimer = setTimeout(function () { statusTimer = null; setStatus(live ? "live" : "offline"); }, 6000);
    note(text);
  }
  function note(text) { if (ui.note) setText(ui.note, text || ""); }
  function message(text, kind) {
    st.messageKind = kind || "";
    const node = document.getElementById("message");
    if (!node) return;
    node.className = "message" + (kind ? " " + kind : "");
    setText(node, text || "");
    node.hidden = !text;
  }

  // ------------------------------------------------------------------------------------------------ the state
  function adopt(doc, own) {
    if (!doc || typeof doc.version !== "number" || !doc.table) return;
    if (st.doc && doc.version < st.doc.version) return;
    if (st.doc && doc.version === st.doc.version && !own) return;
    st.doc = doc;
    if (doc.table.status === "closed") st.closed = true;
    const shape = JSON.stringify([doc.lang, doc.words, doc.seats, doc.table.kinds, doc.table.game, doc.objectives,
      doc.options, doc.board ? [doc.board.territories.length, doc.board.width, doc.board.height] : null]);
    if (shape !== st.shape) { st.shape = shape; build(); }
    update();
  }
  function refresh() {
    return fetch(base + "/state" + query, { cache: "no-store" }).then(function (r) {
      if (r.status === 404 || r.status === 410) { shut(); return; }
      if (!r.ok) { setStatus("offline"); return; }
      return r.json().then(function (doc) { adopt(doc, false); });
    }).catch(function () { setStatus("offline"); });
  }
  function shut() {
    st.closed = true;
    st.queue = [];
    if (source) source.close();
    stopPolling();
    if (st.doc) update(); else {
      const main = document.getElementById("main");
      clear(main);
    }
    setStatus("gone");
  }

  // ------------------------------------------------------------------------------------------------ building
  function build() {
    const doc = st.doc, w = words();
    const main = document.getElementById("main");
    clear(main);
    for (const k in ui) delete ui[k];
    document.documentElement.lang = doc.lang || "";
    const kinds = doc.table.kinds || [];
    const hasMap = kinds.indexOf("situation") !== -1 && !!doc.board && doc.table.game !== "ricochet";
    const hasPoints = kinds.indexOf("points") !== -1 || doc.table.game === "ricochet";
    if (!st.tab || (st.tab === "map" && !hasMap) || (st.tab === "points" && !hasPoints)) st.tab = hasMap ? "map" : "points";

    ui.banner = el("div", "banner", "");
    ui.banner.id = "banner";
    ui.banner.setAttribute("role", "status");
    ui.banner.hidden = true;
    main.appendChild(ui.banner);

    if (hasMap && hasPoints) {
      const tabs = el("div", "tabs");
      tabs.setAttribute("role", "tablist");
      ui.tabs = {};
      [["map", w.map], ["points", w.points]].forEach(function (t) {
        const b = button("tab", t[1], "tab-" + t[0]);
        b.setAttribute("role", "tab");
        b.setAttribute("aria-controls", "panel-" + t[0]);
        b.addEventListener("click", function () { st.tab = t[0]; update(); });
        ui.tabs[t[0]] = b;
        tabs.appendChild(b);
      });
      main.appendChild(tabs);
    }
    if (hasMap) main.appendChild(buildMap());
    if (hasPoints) main.appendChild(buildPoints());

    const foot = el("div", "foot");
    ui.message = el("p", "message");
    ui.message.id = "message";
    ui.message.setAttribute("role", "alert");
    ui.message.hidden = true;
    foot.appendChild(ui.message);
    ui.note = el("p", "note");
    ui.note.setAttribute("aria-live", "polite");
    foot.appendChild(ui.note);
    main.appendChild(foot);
  }

  // ---------------------------------------------------------------------------------------------- the map tab
  function buildMap() {
    const doc = st.doc, w = words(), board = doc.board;
    const panel = el("section", "panel panel-map");
    panel.id = "panel-map";
    panel.setAttribute("role", "tabpanel");

    // the brushes: one per seat, and the eraser
    const brushes = el("div", "brushes");
    ui.brushes = {};
    doc.seats.forEach(function (s) {
      const b = button("brush", null, "brush-" + s.seat);
      b.style.backgroundColor = s.colour;
      b.style.color = s.text;
      b.setAttribute("aria-label", s.name);
      b.title = s.name;
      b.appendChild(el("span", "brush-name", brushName(s)));
      const count = el("span", "brush-count", "");
      b.appendChild(count);
      const warn = el("span", "brush-warn", "!");
      warn.hidden = true;
      b.appendChild(warn);
      b.addEventListener("click", function () { pickBrush(s.seat); });
      ui.brushes[s.seat] = { node: b, count: count, warn: warn };
      brushes.appendChild(b);
    });
    const eraser = button("brush eraser", null, "brush-none");
    eraser.setAttribute("aria-label", w.unowned || "");
    eraser.appendChild(el("span", "brush-name", w.unowned));
    const eraserCount = el("span", "brush-count", "");
    eraser.appendChild(eraserCount);
    eraser.addEventListener("click", function () { pickBrush("none"); });
    ui.brushes.none = { node: eraser, count: eraserCount, warn: null };
    brushes.appendChild(eraser);
    panel.appendChild(brushes);

    // the continent filter
    const zoom = el("div", "zooms");
    ui.zooms = [];
    const all = button("zoom", w.all || w.map, "zoom-all");
    all.addEventListener("click", function () { setZoom(-1); });
    zoom.appendChild(all);
    ui.zooms.push(all);
    board.continents.forEach(function (c, i) {
      const b = button("zoom", shortContinent(c.name), "zoom-" + i);
      b.setAttribute("aria-label", c.name);
      b.title = c.name;
      b.style.backgroundColor = c.colour;
      b.addEventListener("click", function () { setZoom(i); });
      zoom.appendChild(b);
      ui.zooms.push(b);
    });
    panel.appendChild(zoom);

    // the map
    const box = el("div", "map-box");
    const map = svg("svg", { viewBox: "0 0 " + board.width + " " + board.height, class: "map", role: "group",
      preserveAspectRatio: "xMidYMid meet", "aria-label": w.map || "map" });
    map.appendChild(svg("rect", { x: -2000, y: -2000, width: board.width + 4000, height: board.height + 4000, class: "sea" }));
    const colours = {};
    board.continents.forEach(function (c) { colours[c.name] = c.colour; });
    const lands = svg("g", { class: "lands" });
    board.territories.forEach(function (t) {
      lands.appendChild(svg("circle", { cx: t.x, cy: t.y, r: 78, fill: colours[t.continent] || "#e8e8e8" }));
    });
    map.appendChild(lands);
    const links = svg("g", { class: "links" });
    (board.links || []).forEach(function (l) {
      const a = board.territories[l[0]], b = board.territories[l[1]];
      if (!a || !b) return;
      if (Math.abs(a.x - b.x) > board.width / 2) { // the wrap-around link (Alaska–Kamchatka): two stubs off the edges
        const left = a.x < b.x ? a : b, right = a.x < b.x ? b : a;
        links.appendChild(svg("line", { x1: left.x, y1: left.y, x2: 0, y2: left.y, class: "wrap" }));
        links.appendChild(svg("line", { x1: right.x, y1: right.y, x2: board.width, y2: right.y, class: "wrap" }));
        return;
      }
      links.appendChild(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    });
    map.appendChild(links);
    const names = svg("g", { class: "names" });
    ui.labels = names;
    const terrs = svg("g", { class: "territories" });
    ui.terr = [];
    board.territories.forEach(function (t, i) {
      const g = svg("g", { id: "t-" + i, class: "territory", tabindex: 0, role: "button", "aria-label": t.name });
      g.setAttribute("data-name", t.name);
      g.setAttribute("data-index", i);
      g.appendChild(svg("circle", { cx: t.x, cy: t.y, r: HIT, class: "hit" }));
      const ring = svg("circle", { cx: t.x, cy: t.y, r: RING, class: "ring" });
      const disc = svg("circle", { cx: t.x, cy: t.y, r: R, class: "disc" });
      const num = svg("text", { x: t.x, y: t.y, class: "armies", "text-anchor": "middle", dy: "0.36em" });
      g.appendChild(ring);
      g.appendChild(disc);
      g.appendChild(num);
      g.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tapTerritory(i); }
      });
      terrs.appendChild(g);
      const label = svg("text", { x: t.x, y: t.y + R + 8, class: "name", "text-anchor": "middle" });
      const parts = labelLines(t.name);
      parts.forEach(function (p, j) {
        const span = svg("tspan", { x: t.x, dy: j ? "1.05em" : "0.9em" });
        span.textContent = p;
        label.appendChild(span);
      });
      names.appendChild(label);
      ui.terr.push({ g: g, disc: disc, ring: ring, num: num, t: t });
    });
    map.appendChild(terrs);
    map.appendChild(names);
    map.addEventListener("click", function (e) {
      const g = e.target && e.target.closest ? e.target.closest(".territory") : null;
      if (g && !(e.clientX || e.clientY)) { tapTerritory(Number(g.getAttribute("data-index"))); return; }
      const i = nearest(e);
      if (i !== null) tapTerritory(i);
    });
    ui.map = map;
    box.appendChild(map);
    panel.appendChild(box);

    // what is selected, and the number pad
    const info = el("div", "info");
    ui.infoChip = el("span", "chip", "");
    const infoText = el("span", "info-text");
    ui.infoName = el("span", "info-name", "");
    ui.infoHint = el("span", "info-hint", "");
    infoText.appendChild(ui.infoName);
    infoText.appendChild(ui.infoHint);
    ui.clearOne = button("clear-one", w.clear_territory, "clear-territory");
    ui.clearOne.addEventListener("click", function () {
      if (!st.sel) return;
      const t = board.territories[st.sel.index];
      st.sel = null;
      send({ t: "territory", name: t.name, seat: null });
    });
    [ui.infoChip, infoText, ui.clearOne].forEach(function (n) { info.appendChild(n); });
    panel.appendChild(info);

    const pad = el("div", "pad");
    ui.pad = [];
    ["1", "2", "3", "back", "4", "5", "6", "0", "7", "8", "9", "ok"].forEach(function (k) {
      const text = k === "back" ? "⌫" : k === "ok" ? w.numpad_ok : k;
      const b = button("key" + (k === "back" ? " key-back" : k === "ok" ? " key-ok" : ""), text, "pad-" + k);
      if (k === "back") b.setAttribute("aria-label", w.backspace || "⌫");
      b.addEventListener("click", function () { padKey(k); });
      ui.pad.push(b);
      pad.appendChild(b);
    });
    panel.appendChild(pad);

    // the seats
    const cards = el("div", "seats");
    ui.cards = {};
    doc.seats.forEach(function (s) { cards.appendChild(buildSeatCard(s)); });
    panel.appendChild(cards);

    // problems, submit, start over
    const probs = el("section", "problems");
    ui.problemsTitle = el("h2", "problems-title", w.problems);
    probs.appendChild(ui.problemsTitle);
    ui.problems = el("ul", "problem-list");
    probs.appendChild(ui.problems);
    panel.appendChild(probs);
    ui.summary = el("p", "summary", "");
    panel.appendChild(ui.summary);
    const actions = el("div", "actions");
    ui.submit = button("submit", w.submit, "submit");
    ui.submit.addEventListener("click", function () { submit("situation"); });
    actions.appendChild(ui.submit);
    ui.startOver = button("start-over", w.start_over, "start-over");
    ui.startOver.addEventListener("click", function () {
      if (window.confirm(words().confirm_start_over)) { st.sel = null; send({ t: "clear" }); }
    });
    actions.appendChild(ui.startOver);
    panel.appendChild(actions);
    ui.mapPanel = panel;
    return panel;
  }
  function labelLines(name) { // short labels for the zoomed map: "Europa Settentrionale" → "Europa" / "Sett."
    const parts = String(name).trim().split(/\s+/).map(function (p, i) { return i && p.length > 7 ? p.slice(0, 4) + "." : p; });
    const text = parts.join(" ");
    if (parts.length < 2 || text.length <= 9) return [text];
    let best = 1, bestLen = Infinity;
    for (let i = 1; i < parts.length; i++) {
      const len = Math.max(parts.slice(0, i).join(" ").length, parts.slice(i).join(" ").length);
      if (len < bestLen) { bestLen = len; best = i; }
    }
    return [parts.slice(0, best).join(" "), parts.slice(best).join(" ")];
  }
  function buildSeatCard(s) {
    const doc = st.doc, w = words(), o = doc.options || {};
    const card = el("article", "seat-card");
    card.id = "seat-" + s.seat;
    const head = el("header", "seat-head");
    const dot = el("span", "dot");
    dot.style.backgroundColor = s.colour;
    head.appendChild(dot);
    head.appendChild(el("h3", "seat-name", s.name));
    const place = el("span", "place", "");
    const tp = el("span", "tp", "");
    head.appendChild(tp);
    head.appendChild(place);
    card.appendChild(head);
    const nums = el("p", "nums", "");
    const extra = el("p", "extra", "");
    card.appendChild(nums);
    card.appendChild(extra);
    const controls = el("div", "controls");
    const c = { card: card, place: place, tp: tp, nums: nums, extra: extra };

    if ((doc.objectives || []).length) {
      const lab = el("label", "field");
      lab.appendChild(el("span", "field-label", w.objective));
      const sel = el("select", "objective");
      sel.id = "objective-" + s.seat;
      sel.appendChild(option("", w.no_objective));
      doc.objectives.forEach(function (name) { sel.appendChild(option(name, name)); });
      sel.addEventListener("change", function () {
        send({ t: "objective", seat: s.seat, name: sel.value === "" ? null : sel.value });
      });
      lab.appendChild(sel);
      controls.appendChild(lab);
      c.objective = sel;
    }
    const status = el("select", "status-select");
    status.id = "status-" + s.seat;
    status.setAttribute("aria-label", s.name);
    status.appendChild(option("active", w.status_active));
    status.appendChild(option("withdrawn", w.status_withdrawn));
    status.appendChild(option("disqualified", w.status_disqualified));
    status.addEventListener("change", function () { send({ t: "status", seat: s.seat, status: status.value }); });
    const statusField = el("div", "field field-status");
    statusField.appendChild(status);
    controls.appendChild(statusField);
    c.status = status;

    if (o.achieved) c.achieved = checkbox(controls, "achieved-" + s.seat, w.achieved, "achieved", s.seat);
    if (o.frozen) c.frozen = checkbox(controls, "frozen-" + s.seat, w.frozen, "frozen", s.seat);
    if (o.cards) {
      const f = el("label", "field field-cards");
      f.appendChild(el("span", "field-label", w.cards));
      const input = el("input", "cards");
      input.id = "cards-" + s.seat;
      input.type = "number";
      input.min = "0";
      input.max = "99";
      input.inputMode = "numeric";
      input.addEventListener("change", function () {
        const v = parseInt(input.value, 10);
        send({ t: "cards", seat: s.seat, value: isNaN(v) || v < 0 ? 0 : v });
      });
      f.appendChild(input);
      controls.appendChild(f);
      c.cards = input;
    }
    card.appendChild(controls);
    ui.cards[s.seat] = c;
    return card;
  }
  function option(value, text) { const o = el("option", null, text); o.value = value; return o; }
  function checkbox(parent, id, text, t, seat) {
    const lab = el("label", "check");
    const box = el("input");
    box.type = "checkbox";
    box.id = id;
    box.addEventListener("change", function () { send({ t: t, seat: seat, value: box.checked }); });
    lab.appendChild(box);
    lab.appendChild(el("span", null, text));
    parent.appendChild(lab);
    return box;
  }

  // ------------------------------------------------------------------------------------------------ map logic
  function pickBrush(b) {
    st.brush = st.brush === b ? null : b; // a second tap puts the brush down: taps then only select
    if (st.brush === "none") st.sel = null;
    update();
  }
  function scale() { // screen pixels per map unit
    const rect = ui.map.getBoundingClientRect();
    const vb = ui.map.viewBox.baseVal;
    return rect.width && vb && vb.width ? Math.min(rect.width / vb.width, rect.height / vb.height) : 0.225;
  }
  function nearest(e) {
    const m = ui.map.getScreenCTM();
    if (!m) return null;
    const p = ui.map.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    const q = p.matrixTransform(m.inverse());
    const limit = Math.max(NEAR, NEAR_PX / scale());
    let best = null, bestD = limit * limit;
    st.doc.board.territories.forEach(function (t, i) {
      const d = (t.x - q.x) * (t.x - q.x) + (t.y - q.y) * (t.y - q.y);
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  }
  function tapTerritory(i) {
    if (!editable()) return;
    const t = st.doc.board.territories[i];
    const now = view().territories[t.name];
    if (st.brush === "none") {
      st.sel = null;
      if (now) send({ t: "territory", name: t.name, seat: null }); else update();
      return;
    }
    if (st.brush !== null && (!now || now.seat !== st.brush)) {
      st.sel = { index: i, fresh: true, text: "" };
      send({ t: "territory", name: t.name, seat: st.brush, armies: 1 });
      return;
    }
    st.sel = { index: i, fresh: true, text: "" };
    update();
  }
  function padKey(k) {
    if (!editable()) return;
    if (k === "ok") { st.sel = null; update(); return; }
    if (!st.sel) return;
    const t = st.doc.board.territories[st.sel.index];
    const now = view().territories[t.name];
    if (!now) return; // a territory without an owner has no armies: choose a colour first
    let text = st.sel.text;
    if (k === "back") {
      text = (st.sel.fresh ? String(now.armies) : text).slice(0, -1);
      st.sel.fresh = text === "";
    } else if (st.sel.fresh) {
      if (k === "0") return; // no territory holds 0 armies
      text = k;
      st.sel.fresh = false;
    } else {
      if (text.length >= 3) return;
      text += k;
    }
    st.sel.text = text;
    const armies = text === "" ? 1 : parseInt(text, 10);
    if (armies !== now.armies) send({ t: "territory", name: t.name, seat: now.seat, armies: armies });
    else update();
  }
  function setZoom(i) {
    st.zoom = i;
    const board = st.doc.board;
    if (i < 0) ui.map.setAttribute("viewBox", "0 0 " + board.width + " " + board.height);
    else {
      const name = board.continents[i].name;
      const ts = board.territories.filter(function (t) { return t.continent === name; });
      if (!ts.length) return;
      const pad = 70;
      let x0 = Math.min.apply(null, ts.map(function (t) { return t.x; })) - pad;
      let x1 = Math.max.apply(null, ts.map(function (t) { return t.x; })) + pad;
      let y0 = Math.min.apply(null, ts.map(function (t) { return t.y; })) - pad;
      let y1 = Math.max.apply(null, ts.map(function (t) { return t.y; })) + pad + 40; // room for the names under
      const ratio = board.width / board.height;
      let w = x1 - x0, h = y1 - y0;
      if (w / h < ratio) { const nw = h * ratio; x0 -= (nw - w) / 2; w = nw; } else { const nh = w / ratio; y0 -= (nh - h) / 2; h = nh; }
      ui.map.setAttribute("viewBox", [x0, y0, w, h].map(function (v) { return Math.round(v); }).join(" "));
    }
    update();
  }

  // --------------------------------------------------------------------------------------------- points tab
  function buildPoints() {
    const doc = st.doc, w = words();
    const rr = doc.table.game === "ricochet";
    const panel = el("section", "panel panel-points");
    panel.id = "panel-points";
    panel.setAttribute("role", "tabpanel");
    panel.appendChild(el("h2", "points-title", rr ? w.tokens : w.points));
    ui.points = {};
    doc.seats.forEach(function (s) {
      const row = el("div", "points-row");
      const dot = el("span", "dot");
      dot.style.backgroundColor = s.colour;
      row.appendChild(dot);
      const label = el("label", "points-label", fill(rr ? w.seat_tokens : w.seat_points, { name: s.name }));
      label.htmlFor = "points-" + s.seat;
      row.appendChild(label);
      const input = el("input", "points-input");
      input.id = "points-" + s.seat;
      input.type = "text";
      input.inputMode = rr ? "numeric" : "decimal";
      input.autocomplete = "off";
      input.setAttribute("autocapitalize", "off");
      input.setAttribute("spellcheck", "false");
      input.maxLength = 12;
      let timer = null, last = null;
      function push() {
        if (timer) { clearTimeout(timer); timer = null; }
        const v = input.value.trim();
        if (v === last) return;
        last = v;
        send({ t: "points", seat: s.seat, value: v });
      }
      input.addEventListener("input", function () {
        if (timer) clearTimeout(timer);
        timer = setTimeout(push, DEBOUNCE_MS);
      });
      input.addEventListener("change", push);
      input.addEventListener("focus", function () { last = input.value.trim(); });
      row.appendChild(input);
      const result = el("span", "points-result", "");
      row.appendChild(result);
      ui.points[s.seat] = { input: input, result: result, row: row };
      panel.appendChild(row);
    });
    const actions = el("div", "actions");
    ui.submitPoints = button("submit", w.submit_points, "submit-points");
    ui.submitPoints.addEventListener("click", function () {
      if (document.activeElement && document.activeElement.classList.contains("points-input")) document.activeElement.blur();
      submit("points");
    });
    actions.appendChild(ui.submitPoints);
    panel.appendChild(actions);
    ui.pointsPanel = panel;
    return panel;
  }

  // ------------------------------------------------------------------------------------------------ submit
  let submitting = false;
  function submit(kind) {
    if (!editable() || submitting) return;
    submitting = true;
    message("", "");
    update();
    idle().then(function () {
      return fetch(base + "/submit" + query, {
        method: "POST", headers: { "Content-Type": "application/json" }, cache: "no-store",
        body: JSON.stringify({ kind: kind }),
      });
    }).then(function (r) {
      if (r.status === 404) { shut(); return; }
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (r.ok && data.ok !== false) {
          message(data.message || words().sent, "ok");
          note(words().sent);
          if (data.state) adopt(data.state, true);
        } else {
          message(data.error || String(r.status), "error");
          if (r.status === 410) refresh();
        }
      });
    }).catch(function () {
      message(words().reconnecting, "error");
    }).then(function () {
      submitting = false;
      update();
    });
  }

  // ------------------------------------------------------------------------------------------------ updating
  function update() {
    if (!st.doc) return;
    const doc = st.doc, w = words(), draft = view();
    const status = doc.table.status;
    const can = editable();
    document.title = doc.table.tournament + " · " + doc.table.round_label;
    setText(document.getElementById("name"), doc.table.tournament);
    setText(document.getElementById("round-label"),
      doc.table.round_label + " · " + (w.table ? fill(w.table, { number: doc.table.number }) : "#" + doc.table.number));
    document.body.classList.toggle("readonly", !can);
    document.body.dataset.version = String(doc.version);

    // the banner
    if (ui.banner) {
      const text = st.closed || status === "closed" ? w.closed : status === "locked" ? w.locked : status === "entered" ? w.entered : "";
      ui.banner.className = "banner " + (st.closed ? "closed" : status);
      setText(ui.banner, text);
      ui.banner.hidden = !text;
    }
    // the tabs
    if (ui.tabs) {
      Object.keys(ui.tabs).forEach(function (k) {
        const on = st.tab === k;
        ui.tabs[k].classList.toggle("active", on);
        ui.tabs[k].setAttribute("aria-selected", on ? "true" : "false");
      });
    }
    if (ui.mapPanel) ui.mapPanel.hidden = st.tab !== "map";
    if (ui.pointsPanel) ui.pointsPanel.hidden = st.tab !== "points";
    if (ui.mapPanel) updateMap(draft, can);
    if (ui.pointsPanel) updatePoints(draft, can);
    if (st.closed) setStatus("gone");
  }
  function seatTotals(draft) {
    const totals = {};
    st.doc.seats.forEach(function (s) { totals[s.seat] = { territories: 0, armies: 0 }; });
    let free = st.doc.board ? st.doc.board.territories.length : 0;
    Object.keys(draft.territories).forEach(function (name) {
      const v = draft.territories[name];
      if (!v || v.seat === null || v.seat === undefined || !totals[v.seat]) return;
      totals[v.seat].territories += 1;
      totals[v.seat].armies += Number(v.armies) || 0;
      free -= 1;
    });
    return { seats: totals, free: Math.max(0, free) };
  }
  function updateMap(draft, can) {
    const doc = st.doc, w = words(), board = doc.board;
    const totals = seatTotals(draft);
    const problems = (doc.preview && doc.preview.problems) || [];
    const badTerritories = {}, badSeats = {};
    problems.forEach(function (p) {
      if (p.territory) badTerritories[p.territory] = true;
      if (p.seat !== undefined && p.seat !== null) badSeats[p.seat] = true;
    });
    if (st.brush !== null && st.brush !== "none" && !seatOf(st.brush)) st.brush = null;
    if (!can) { st.sel = null; st.brush = null; }

    // brushes
    doc.seats.forEach(function (s) {
      const b = ui.brushes[s.seat], tot = totals.seats[s.seat];
      const p = previewSeat(s.seat);
      const limit = p && p.limit !== null && p.limit !== undefined ? p.limit : doc.army_limit;
      const over = limit !== null && limit !== undefined && tot.armies > limit;
      setText(b.count, tot.territories + " · " + tot.armies);
      b.warn.hidden = !over;
      b.node.classList.toggle("over", over);
      b.node.setAttribute("aria-pressed", st.brush === s.seat ? "true" : "false");
      b.node.disabled = !can;
      const label = s.name + ": " + fill(w.territories, { number: tot.territories }) + ", " + fill(w.armies, { number: tot.armies }) +
        (over ? ", " + (w.over_limit || "") : "");
      if (b.node.getAttribute("aria-label") !== label) b.node.setAttribute("aria-label", label);
    });
    setText(ui.brushes.none.count, String(totals.free));
    ui.brushes.none.node.setAttribute("aria-pressed", st.brush === "none" ? "true" : "false");
    ui.brushes.none.node.disabled = !can;
    const brushSeat = st.brush !== null && st.brush !== "none" ? seatOf(st.brush) : null;
    ui.map.parentNode.style.borderColor = brushSeat ? brushSeat.colour : st.brush === "none" ? "#777" : "";
    ui.map.parentNode.classList.toggle("erasing", st.brush === "none");

    // zoom buttons and the size of the names
    ui.zooms.forEach(function (b, j) {
      b.setAttribute("aria-pressed", st.zoom === j - 1 ? "true" : "false");
    });
    const sc = scale();
    ui.map.classList.toggle("zoomed", st.zoom >= 0 || sc >= 0.4); // names when they can be read (zoom, desktop)
    ui.labels.style.fontSize = (11 / (sc || 0.225)).toFixed(1) + "px";

    // territories
    const sel = st.sel;
    ui.terr.forEach(function (n, i) {
      const v = draft.territories[n.t.name];
      const owner = v ? seatOf(v.seat) : null;
      n.disc.style.fill = owner ? owner.colour : "#b0b0b0";
      n.num.style.fill = owner ? owner.text : "#333";
      setText(n.num, owner ? String(v.armies) : "");
      const classes = "territory" + (owner ? " owned" : " free") + (badTerritories[n.t.name] ? " problem" : "") +
        (sel && sel.index === i ? " selected" : "");
      if (n.g.getAttribute("class") !== classes) n.g.setAttribute("class", classes);
      const seat = owner ? String(v.seat) : "";
      if (n.g.getAttribute("data-seat") !== seat) n.g.setAttribute("data-seat", seat);
      const label = n.t.name + ": " + (owner ? owner.name + ", " + fill(w.armies, { number: v.armies }) : w.unowned);
      if (n.g.getAttribute("aria-label") !== label) n.g.setAttribute("aria-label", label);
    });

    // the selected territory
    if (sel) {
      const t = board.territories[sel.index];
      const v = draft.territories[t.name];
      const owner = v ? seatOf(v.seat) : null;
      ui.infoChip.hidden = false;
      ui.infoChip.style.backgroundColor = owner ? owner.colour : "#b0b0b0";
      ui.infoChip.style.color = owner ? owner.text : "#1d1d1b";
      setText(ui.infoChip, owner ? (sel.fresh ? String(v.armies) : sel.text || String(v.armies)) : "–");
      setText(ui.infoName, t.name);
      setText(ui.infoHint, owner ? w.armies_hint : w.owner_hint);
      ui.infoChip.classList.toggle("typing", !sel.fresh);
      ui.clearOne.hidden = !owner;
    } else {
      ui.infoChip.hidden = true;
      setText(ui.infoName, "");
      setText(ui.infoHint, st.brush === null ? w.owner_hint : totals.free ? fill(w.missing, { number: totals.free }) : w.complete);
      ui.clearOne.hidden = true;
    }
    ui.pad.forEach(function (b) { b.disabled = !can; });
    ui.pad.forEach(function (b) { b.classList.toggle("idle", !sel); });

    // seat cards
    doc.seats.forEach(function (s) { updateCard(s, draft, totals, badSeats, can); });

    // problems, submit
    clear(ui.problems);
    problems.forEach(function (p) {
      const li = el("li", "problem");
      if (p.territory) {
        const b = button("problem-link", p.text);
        b.addEventListener("click", function () { showTerritory(p.territory); });
        li.appendChild(b);
      } else li.appendChild(el("span", null, p.text));
      ui.problems.appendChild(li);
    });
    ui.problemsTitle.parentNode.hidden = !problems.length;
    const complete = !!(doc.preview && doc.preview.complete);
    setText(ui.summary, complete && !st.queue.length && !st.inflight.length ? w.complete : "");
    ui.summary.hidden = !ui.summary.textContent;
    ui.submit.disabled = !can || !complete || submitting || st.queue.length > 0 || st.inflight.length > 0;
    ui.startOver.disabled = !can;
    ui.clearOne.disabled = !can;
  }
  function showTerritory(name) {
    const board = st.doc.board;
    const i = board.territories.findIndex(function (t) { return t.name === name; });
    if (i < 0) return;
    const c = board.continents.findIndex(function (x) { return x.name === board.territories[i].continent; });
    st.sel = { index: i, fresh: true, text: "" };
    setZoom(c);
    if (ui.map.scrollIntoView) ui.map.parentNode.scrollIntoView({ block: "center" });
  }
  function updateCard(s, draft, totals, badSeats, can) {
    const c = ui.cards[s.seat], w = words(), doc = st.doc;
    const p = previewSeat(s.seat) || {};
    const tot = totals.seats[s.seat];
    const key = String(s.seat);
    const limit = p.limit !== null && p.limit !== undefined ? p.limit : doc.army_limit;
    const over = (limit !== null && limit !== undefined && tot.armies > limit);
    const status = draft.status[key] || "active";
    c.card.classList.toggle("problem", !!badSeats[s.seat]);
    c.card.classList.toggle("out", status !== "active");
    setText(c.place, p.rank ? fill(w.place, { place: p.rank }) : "");
    c.place.hidden = !p.rank;
    const bits = [];
    if (p.table_points !== null && p.table_points !== undefined) bits.push(fill(w.table_points, { number: number(p.table_points) }));
    if (p.tournament_points !== null && p.tournament_points !== undefined && p.tournament_points !== "") {
      bits.push(fill(w.tournament_points, { number: number(p.tournament_points) }));
    }
    setText(c.tp, bits.join(" · "));
    clear(c.nums);
    c.nums.appendChild(el("span", null, fill(w.territories, { number: tot.territories })));
    c.nums.appendChild(document.createTextNode(" · "));
    const armies = el("span", over ? "over" : null, fill(w.armies, { number: tot.armies }) +
      (limit !== null && limit !== undefined ? " / " + fill(w.limit, { number: limit }) : "") + (over ? " · " + w.over_limit : ""));
    c.nums.appendChild(armies);
    const extra = [];
    if (p.continents && p.continents.length) extra.push(w.continents + ": " + p.continents.join(", "));
    if (p.strip && p.strip.length) extra.push(w.strip + ": " + p.strip.join(", "));
    if (p.objective && p.objective_total) extra.push(fill(w.objective_held, { held: p.objective_held, total: p.objective_total }));
    setText(c.extra, extra.join(" · "));
    c.extra.hidden = !extra.length;
    if (c.objective) {
      const mine = draft.objectives[key] || "";
      const taken = {};
      doc.seats.forEach(function (o) {
        const n = draft.objectives[String(o.seat)];
        if (o.seat !== s.seat && n) taken[n] = (taken[n] ? taken[n] + ", " : "") + short(o.name);
      });
      Array.prototype.forEach.call(c.objective.options, function (opt) {
        if (!opt.value) return;
        const text = taken[opt.value] ? opt.value + " (" + taken[opt.value] + ")" : opt.value;
        if (opt.textContent !== text) opt.textContent = text;
      });
      if (document.activeElement !== c.objective && c.objective.value !== mine) c.objective.value = mine;
      c.objective.disabled = !can;
    }
    if (document.activeElement !== c.status && c.status.value !== status) c.status.value = status;
    c.status.disabled = !can;
    if (c.achieved) { c.achieved.checked = !!draft.achieved[key]; c.achieved.disabled = !can; }
    if (c.frozen) { c.frozen.checked = !!draft.frozen[key]; c.frozen.disabled = !can; }
    if (c.cards) {
      const v = draft.cards[key];
      const text = v === undefined || v === null ? "" : String(v);
      if (document.activeElement !== c.cards && c.cards.value !== text) c.cards.value = text;
      c.cards.disabled = !can;
    }
  }
  function updatePoints(draft, can) {
    const doc = st.doc, w = words();
    let filled = true;
    doc.seats.forEach(function (s) {
      const row = ui.points[s.seat];
      const v = draft.points[String(s.seat)];
      const text = v === undefined || v === null ? "" : String(v);
      if (text === "") filled = false;
      if (document.activeElement !== row.input && row.input.value !== text) row.input.value = text;
      row.input.disabled = !can;
      const p = previewSeat(s.seat) || {};
      const bits = [];
      if (p.rank) bits.push(fill(w.place, { place: p.rank }));
      if (p.tournament_points !== null && p.tournament_points !== undefined && p.tournament_points !== "") {
        bits.push(fill(w.tournament_points, { number: number(p.tournament_points) }));
      }
      setText(row.result, bits.join(" · "));
    });
    ui.submitPoints.disabled = !can || !filled || submitting;
  }

  // ------------------------------------------------------------------------------------------------ live
  let source = null, polling = null, live = false;
  function startPolling() { if (!polling && !st.closed) polling = setInterval(refresh, POLL_MS); }
  function stopPolling() { if (polling) { clearInterval(polling); polling = null; } }
  function connect() {
    if (st.closed) return;
    if (typeof EventSource === "undefined") { startPolling(); return; }
    source = new EventSource(base + "/events" + query);
    source.addEventListener("state", function (e) {
      try { adopt(JSON.parse(e.data), false); } catch (err) { /* a torn message: the next one repairs it */ }
    });
    source.addEventListener("closed", function () { shut(); });
    source.addEventListener("open", function () { live = true; stopPolling(); setStatus("live"); refresh(); });
    source.addEventListener("error", function () {
      live = false;
      if (st.closed) return;
      setStatus("offline");
      startPolling();
      if (source.readyState === EventSource.CLOSED) { // the browser gave up (e.g. a 503): try again ourselves
        source.close();
        setTimeout(connect, 5000 + Math.random() * 5000);
      }
    });
  }

  // the pad also answers a keyboard (desktop)
  document.addEventListener("keydown", function (e) {
    if (st.tab !== "map" || !ui.pad || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = document.activeElement ? document.activeElement.tagName : "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (/^[0-9]$/.test(e.key)) { padKey(e.key); e.preventDefault(); }
    else if (e.key === "Backspace") { padKey("back"); e.preventDefault(); }
    else if (e.key === "Escape" || (e.key === "Enter" && !(document.activeElement && document.activeElement.closest && document.activeElement.closest(".territory, button")))) padKey("ok");
  });
  window.addEventListener("resize", function () { if (ui.map) update(); });

  refresh().then(function () { if (!st.closed) connect(); });
})();
