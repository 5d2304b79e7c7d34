/* El Grande — table drawing for the tablero web client.
 * Plain browser JavaScript (ES2020), no modules, no libraries.
 * Contract: window.TableroBoards["el-grande"].render(root, payload, kit) (kit: boardkit.js).
 * Legal moves come as actions ({kind: "move", from: "galicia", owner: 1, to: "castillo"}:
 * tablero/games/elgrande/actions.py, EGAction.to_json); a drawn place asks the kit for its own.
 */
(function () {
  "use strict";

  // ------------------------------------------------------------------ fixed game data
  // Filled from kit.data (Game.table_data, built from tablero/games/elgrande/data.py with the
  // table's data overrides applied: region values, power-card table, numbers in card names).
  let REGIONS = [], AREAS = [], CASTILLO = 9, VALUES = [], CASTILLO_VALUES = [], TILES = [], CARD_IDS = [];
  let KING_CARD = -1, POWER_CAB = [], SCORING_ROUNDS = [], CARD_AMOUNTS = {}, OVERRIDES = {}, loaded = null;
  function loadData(d) {
    if (d === loaded || !d || !d.regions) return;
    loaded = d;
    REGIONS = d.regions;
    AREAS = REGIONS.concat(["castillo"]);
    CASTILLO = REGIONS.length;
    VALUES = d.values;
    CASTILLO_VALUES = d.castillo_values;
    TILES = d.tiles;
    CARD_IDS = d.card_ids;
    KING_CARD = d.king_card;
    POWER_CAB = d.power_caballeros;
    SCORING_ROUNDS = d.scoring_rounds;
    CARD_AMOUNTS = d.card_amounts || {};
    OVERRIDES = d.overrides || {};
  }
  const TURN_PHASES = ["intake", "intake_from", "take_card", "order", "place", "after_placement",
    "veto", "select_region", "move", "place_extra", "mode", "select_scoring", "return_from",
    "select_opponent", "tile", "king_to", "grande", "take_back", "court_from"];

  // ------------------------------------------------------------------ own labels
  const LABELS = {
    en: {
      round: "Round", of: "of", short: "short game", scoring: "general scoring after this round",
      phase: "Phase", toAct: "to act", waiting: "Waiting for", last: "Last move",
      offer: "Action cards", taken: "taken", kingCard: "King's card", nothing: "—", dataValue: "changed for this table", legendNoBorder: "no border (this table)",
      current: "In play", court: "Court", province: "Province", grande: "Grande",
      score: "Points", point: "Point", played: "Played", now: "this round", hand: "Hand", handCount: "in hand",
      yourHand: "Your power cards", veto: "Veto!", diskSet: "disk set", diskWait: "disk not set",
      yourDisk: "your disk", order: "Turn order", castillo: "Castillo", hidden: "hidden",
      cabs: "caballeros", offBoard: "off the board", tile: "mobile scoreboard", king: "King",
      moves: "moves", rank: ["1st place", "2nd place", "3rd place", "4th place", "5th place"], takenBack: "taken back", disksShown: "disks of the last reveal",
      legendCab: "caballeros", legendGrande: "Grande", legendKing: "King",
      legendTile: "mobile scoreboard", legendDisk: "revealed disk", legendLast: "last move",
      placed: "placed {a} of {b}", movesLeft: "moves left: {a}", mixedLeft: "own moves left: {a} · opponents' moves left: {b}",
      allOut: "all own caballeros out of {a}", extraLeft: "extra caballeros left: {a}",
      intakeLeft: "still to take: {a}", retLeft: "still to return: {a}", inRegion: "region: {a}",
      cardOf: "{a}'s card", you: "you", map: "Map of Spain", power: "Power card",
      caballerosIntoCourt: "caballeros into the court", viewerSpectator: "Spectator",
      phases: {
        deal: "Setup", start: "Start player", reveal: "Cards are turned up", power: "Power cards",
        intake: "Caballeros into the court", intake_from: "Court: a caballero from a region",
        take_card: "Choosing an action card", order: "Action or placement first?",
        place: "Placing caballeros", after_placement: "Use the special action?",
        veto: "Veto! window", select_region: "Choosing a region", move: "Moving caballeros",
        place_extra: "Extra placement", mode: "Choosing the mode", select_scoring: "Choosing a scoring",
        return_from: "Returning caballeros", select_opponent: "Sending caballeros back",
        disk: "Secret disks", tile: "Mobile scoreboard", king_to: "Moving the King",
        grande: "Moving a Grande", take_back: "Taking a power card back",
        court_from: "Court: caballeros from regions", over: "Game over"
      }
    },
    de: {
      round: "Runde", of: "von", short: "kurzes Spiel", scoring: "Wertung nach dieser Runde",
      phase: "Phase", toAct: "am Zug", waiting: "Am Zug", last: "Letzter Zug",
      offer: "Aktionskarten", taken: "genommen", kingCard: "Königskarte", nothing: "—", dataValue: "für diesen Tisch geändert", legendNoBorder: "keine Grenze (dieser Tisch)",
      current: "Im Spiel", court: "Hof", province: "Provinz", grande: "Grande",
      score: "Punkte", point: "Punkt", played: "Gespielt", now: "diese Runde", hand: "Hand", handCount: "auf der Hand",
      yourHand: "Deine Machtkarten", veto: "Veto!", diskSet: "Drehscheibe gestellt",
      diskWait: "Drehscheibe offen", yourDisk: "deine Drehscheibe", order: "Zugreihenfolge",
      castillo: "Castillo", hidden: "verdeckt", cabs: "Caballeros", offBoard: "neben dem Plan",
      tile: "Wertungstafel", king: "König", moves: "Züge", rank: ["1. Platz", "2. Platz", "3. Platz", "4. Platz", "5. Platz"], takenBack: "zurückgenommen",
      disksShown: "Drehscheiben der letzten Aufdeckung",
      legendCab: "Caballeros", legendGrande: "Grande", legendKing: "König",
      legendTile: "Wertungstafel", legendDisk: "aufgedeckte Drehscheibe", legendLast: "letzter Zug",
      placed: "{a} von {b} eingesetzt", movesLeft: "noch {a} Züge", mixedLeft: "noch {a} eigene · {b} fremde Züge",
      allOut: "alle eigenen Caballeros aus {a}", extraLeft: "noch {a} zusätzliche Caballeros",
      intakeLeft: "noch {a} zu nehmen", retLeft: "noch {a} zurückzugeben", inRegion: "Region: {a}",
      cardOf: "Karte von {a}", you: "du", map: "Karte von Spanien", power: "Machtkarte",
      caballerosIntoCourt: "Caballeros an den Hof", viewerSpectator: "Zuschauer",
      phases: {
        deal: "Aufbau", start: "Startspieler", reveal: "Karten werden aufgedeckt", power: "Machtkarten",
        intake: "Caballeros an den Hof", intake_from: "Hof: ein Caballero aus einer Region",
        take_card: "Aktionskarte wählen", order: "Aktion oder Einsetzen zuerst?",
        place: "Caballeros einsetzen", after_placement: "Sonderaktion nutzen?",
        veto: "Veto!-Gelegenheit", select_region: "Region wählen", move: "Caballeros versetzen",
        place_extra: "Zusätzlich einsetzen", mode: "Variante wählen", select_scoring: "Wertung wählen",
        return_from: "Caballeros zurückgeben", select_opponent: "Caballeros zurückschicken",
        disk: "Geheime Drehscheiben", tile: "Wertungstafel", king_to: "König versetzen",
        grande: "Granden versetzen", take_back: "Machtkarte zurücknehmen",
        court_from: "Hof: Caballeros aus Regionen", over: "Spielende"
      }
    }
  };

  // ------------------------------------------------------------------ map geometry
  // Schematic Spain in a 620 x 505 box; neighbouring regions share border points so that
  // the 15 borders of data.py are drawn as shared edges (and no others).
  const P = {
    gN: [62, 19], gW: [8, 60], gW2: [10, 104], gS: [46, 150],
    gp: [150, 24], gpc: [150, 100], gcp: [160, 156],
    pv1: [230, 33], pv2: [300, 45], pv3: [362, 42], pva: [400, 60], pac: [382, 120],
    ac: [472, 74], c1: [540, 84], c2: [612, 98], c3: [606, 134], c4: [584, 166], c5: [552, 196],
    cv: [520, 214], acv: [462, 196], avn: [398, 242], acn: [358, 198],
    pt1: [128, 190], cnw: [122, 238],
    v1: [490, 254], v2: [518, 318], vg: [446, 378], vgn: [352, 330],
    g1: [430, 414], g2: [366, 470], gs: [256, 472], gsn: [266, 366],
    s1: [198, 497], s2: [154, 466], s3: [101, 423], s4: [96, 362], csw: [102, 338]
  };
  const SHAPES = {
    galicia: ["gN", "gp", "gpc", "gcp", "gS", "gW2", "gW"],
    pais_vasco: ["gp", "pv1", "pv2", "pv3", "pva", "pac", "gpc"],
    castilla_la_vieja: ["gpc", "pac", "acn", "cnw", "pt1", "gcp"],
    aragon: ["pva", "ac", "acv", "avn", "acn", "pac"],
    cataluna: ["ac", "c1", "c2", "c3", "c4", "c5", "cv", "acv"],
    valencia: ["acv", "cv", "v1", "v2", "vg", "vgn", "avn"],
    castilla_la_nueva: ["cnw", "acn", "avn", "vgn", "gsn", "csw"],
    granada: ["vgn", "vg", "g1", "g2", "gs", "gsn"],
    sevilla: ["csw", "gsn", "gs", "s1", "s2", "s3", "s4"]
  };
  // Per region: name position (nx, ny), token row centre (tx, ty: King, Grandes, disks),
  // caballero grid (px = centre, py = top, cols).
  const LAYOUT = {
    galicia: { nx: 86, ny: 42, cols: 3, px: 84, py: 89 },
    pais_vasco: { nx: 216, ny: 56, px: 318, py: 52, cols: 3 },
    castilla_la_vieja: { nx: 250, ny: 134, cols: 5, px: 247 },
    aragon: { nx: 426, ny: 94, cols: 2, px: 422 },
    cataluna: { nx: 536, ny: 102, cols: 3, px: 528 },
    valencia: { nx: 452, ny: 246, cols: 2, tx: 442 },
    castilla_la_nueva: { nx: 246, ny: 244, cols: 5, px: 244 },
    granada: { nx: 352, ny: 362, cols: 3 },
    sevilla: { nx: 180, ny: 370, cols: 3 }
  };
  function layFor(id) {
    const l = LAYOUT[id];
    return {
      nx: l.nx, ny: l.ny, cols: l.cols,
      tx: l.tx !== undefined ? l.tx : l.nx, ty: l.ty !== undefined ? l.ty : l.ny + 33,
      px: l.px !== undefined ? l.px : l.nx, py: l.py !== undefined ? l.py : l.ny + 49
    };
  }
  const FILLS = {
    galicia: "#e4ddb4", pais_vasco: "#efd9a8", castilla_la_vieja: "#f2e6c4", aragon: "#e8d0a4",
    cataluna: "#e6dcae", valencia: "#f0dfb0", castilla_la_nueva: "#eadbb8", granada: "#efd2a6",
    sevilla: "#e7e0b8"
  };
  const CAST = { x: 524, y: 334, w: 92, h: 166 };

  const SVGNS = "http://www.w3.org/2000/svg";
  // top-left corner of pill k of `count` in a grid of `cols` centred on cx (last row centred)
  function gridPos(k, count, cols, cx, top) {
    const row = Math.floor(k / cols);
    const inRow = Math.min(cols, count - row * cols);
    const w = inRow * PILL_W + (inRow - 1) * PILL_GAP;
    return [cx - w / 2 + (k % cols) * (PILL_W + PILL_GAP), top + row * (PILL_H + PILL_GAP)];
  }
  const PILL_W = 40, PILL_H = 22, PILL_GAP = 3;

  // ------------------------------------------------------------------ helpers
  function svg(tag, attrs, kids) {
    const n = document.createElementNS(SVGNS, tag);
    if (attrs) for (const k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) n.setAttribute(k, attrs[k]);
    if (kids) for (const c of kids) if (c) n.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return n;
  }
  function h(tag, attrs, kids) {
    const n = document.createElement(tag);
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v === undefined || v === null || v === false) continue;
        if (k === "class") n.className = v;
        else if (k === "text") n.textContent = v;
        else if (k === "style" && typeof v === "object") Object.assign(n.style, v);
        else n.setAttribute(k, v === true ? "" : v);
      }
    }
    if (kids) for (const c of kids) if (c !== null && c !== undefined && c !== false) n.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return n;
  }
  function title(text) { return svg("title", null, [text]); }
  // animations (boardkit.js BoardKit.animate): a component's stable key; for stacks of one seat's
  // caballeros (a region's, the Castillo's, the court, the province) their count and pools;
  // a counter (court, province, hand) is only a place pieces fly from or to
  function anim(node, key, n, pools) {
    node.setAttribute("data-anim", key);
    return animCount(node, n, pools);
  }
  function counter(node, key, n, pools) {
    node.setAttribute("data-anim-origin", key);
    return animCount(node, n, pools);
  }
  function animCount(node, n, pools) {
    if (n !== undefined) { node.setAttribute("data-anim-n", String(n || 0)); node.setAttribute("data-anim-pool", pools); }
    return node;
  }
  function fmt(s, a, b) { return s.replace("{a}", a).replace("{b}", b); }
  function polyPoints(ids) { return ids.map(function (k) { return P[k].join(","); }).join(" "); }
  // the points two neighbouring shapes share, in order along the first (their common edge)
  function sharedEdge(a, b) {
    const A = SHAPES[a] || [], B = new Set(SHAPES[b] || []);
    const k = A.findIndex(function (p, i) { return !B.has(p) && B.has(A[(i + 1) % A.length]); });
    const out = [];
    for (let j = 1; k >= 0 && j <= A.length && B.has(A[(k + j) % A.length]); j++) out.push(A[(k + j) % A.length]);
    return out;
  }
  // borders this table's data closes (BORDERS.<a>-<b>.present=0): drawn as a wall on the map
  function closedBorders() {
    return Object.keys(OVERRIDES).filter(function (k) { return /^BORDERS\./.test(k) && !OVERRIDES[k]; })
      .map(function (k) { return k.split(".")[1].split("-"); });
  }
  // every move that names this area in one of its arguments (a region or the Castillo)
  function namesArea(id) {
    return function (a) { return Object.keys(a).some(function (k) { return k !== "kind" && a[k] === id; }); };
  }

  // ------------------------------------------------------------------ "what does this do?"
  // A small "?" linking an entry of the rules page (/rules/el-grande#anchor, rules.<lang>.md),
  // opened in a new tab: beside a card (a sibling of the clickable card, never inside it), after
  // a heading, and on the map beside each region's values.
  function helpWrap(kit, node, anchor, label) {
    if (!kit.rulesLink) return node;
    return h("div", { class: "bk-helpwrap" }, [node, kit.rulesLink(anchor, label)]);
  }
  function helpLink(kit, anchor, label) { return kit.rulesLink ? kit.rulesLink(anchor, label) : null; }
  function svgHelp(kit, x, y, anchor, label) {
    const a = svg("a", { class: "bk-help-svg", href: kit.rulesHref(anchor), target: "_blank", rel: "noopener", "data-rules": anchor });
    a.appendChild(title(label));
    a.appendChild(svg("circle", { cx: x, cy: y, r: 7.5 }));
    a.appendChild(svg("text", { x: x, y: y + 3.5, "text-anchor": "middle" }, ["?"]));
    return a;
  }
  // where a region's "?" sits: right of its values, moved where the region is narrow
  const HELP_AT = { aragon: [0, -20], cataluna: [38, 9], valencia: [-40, 9] };
  // the rules section a phase belongs to (the card's own entry while a card is carried out)
  const PHASE_HELP = {
    deal: "setup", start: "setup", reveal: "round", power: "power-cards", intake: "intake",
    intake_from: "intake", take_card: "take-card", order: "placement", place: "placement",
    after_placement: "placement", veto: "veto", disk: "secret-disk", over: "end"
  };

  // ------------------------------------------------------------------ renderer
  function render(root, payload, kit) {
    loadData(kit.data);
    const lang = kit.lang;
    const L = kit.words(LABELS);
    // the view (ElGrandeView.to_json): public (the same for every viewer), private (this
    // seat's own facts, null for a spectator), deciding (who decides what now)
    const pub = kit.view.public || {};
    const mine = kit.view.private || null;
    const dec = kit.view.deciding || {};
    const myPick = mine ? mine.pick : -1;
    const n = pub.players || kit.seats.length;
    const viewer = kit.viewer;
    const seats = [];
    for (let i = 0; i < n; i++) seats.push(kit.seat(i));
    const msg = kit.msg;
    function areaName(i) { return i < 0 ? msg("eg.court") : msg("eg.area." + AREAS[i]); }
    // a card's name; where the table's data changes the number in it (1A "up to 5"), with that number
    function cardMsg(id) {
      return CARD_AMOUNTS[id] !== undefined ? msg("eg.card_n." + id, { n: CARD_AMOUNTS[id] }) : msg("eg.card." + id);
    }
    function cardName(id) {
      const full = cardMsg(id);
      return full.indexOf(id + " ") === 0 ? full.slice(id.length + 1) : full;
    }

    // -------------------------------------------------------------- last move
    // the last action as this viewer saw it (Game.redact_action): [actor, wire text]; the
    // public text, or this seat's own when it saw more (its secret disk or take-back)
    const last = Array.isArray(pub.last) ? [pub.last[0], (mine && mine.last_move) || pub.last[1]] : [-1, ""];
    const lastActor = last[0];
    const lastParts = String(last[1] || "").split(" ").filter(Boolean);
    const lastKind = lastParts[0] || "";
    const lastAreas = new Set(lastParts.slice(1).filter(function (t) { return AREAS.indexOf(t) >= 0; }));
    // the area that received a caballero/piece in the last move (for the "last" ring on a pill)
    let lastDest = -1, lastSeatInArea = -1;
    if (lastKind === "move" && lastParts.length === 4) { lastDest = AREAS.indexOf(lastParts[3]); lastSeatInArea = +lastParts[2]; }
    if ((lastKind === "place" || lastKind === "extra") && lastParts.length === 2) { lastDest = AREAS.indexOf(lastParts[1]); lastSeatInArea = lastActor; }

    // -------------------------------------------------------------- root
    root.textContent = "";
    const board = h("div", { class: "eg-board", lang: lang });
    root.appendChild(board);

    // header: round track, phase, who acts, last move
    board.appendChild(renderHeader());

    const main = h("div", { class: "eg-main" });
    board.appendChild(main);
    const mapCol = h("div", { class: "eg-mapcol" });
    main.appendChild(mapCol);
    mapCol.appendChild(renderMap());
    mapCol.appendChild(renderLegend());
    const side = h("div", { class: "eg-side" });
    main.appendChild(side);
    const cur = renderCurrent();
    if (cur) side.appendChild(cur);
    side.appendChild(renderOffer());
    const hand = renderHand();
    if (hand) side.appendChild(hand);
    side.appendChild(renderSeats());

    // -------------------------------------------------------------- header
    function renderHeader() {
      const head = h("div", { class: "eg-head" });
      const rounds = pub.rounds || [1, 2, 3, 4, 5, 6, 7, 8, 9];
      const track = h("ol", { class: "eg-rounds", "aria-label": L.round + " " + pub.round + " (" + (pub.round_index + 1) + " " + L.of + " " + rounds.length + ")" });
      for (let r = 1; r <= 9; r++) {
        const idx = rounds.indexOf(r);
        let cls = "eg-rnd";
        if (idx < 0) cls += " eg-rnd-skip";
        else if (idx < pub.round_index || (dec.phase === "over")) cls += " eg-rnd-done";
        if (r === pub.round && dec.phase !== "over") cls += " eg-rnd-now";
        if (SCORING_ROUNDS.indexOf(r) >= 0) cls += " eg-rnd-score";
        const li = h("li", { class: cls, title: SCORING_ROUNDS.indexOf(r) >= 0 ? L.scoring : null }, [String(r)]);
        track.appendChild(li);
      }
      const roundTxt = h("div", { class: "eg-roundtxt" }, [
        h("strong", { text: L.round + " " + pub.round }),
        // the full game: "Round 4 of 9"; the short game counts its own rounds: "Round 5 (3 of 6, short game)"
        pub.short_game ? " (" + (Math.min(pub.round_index, rounds.length - 1) + 1) + " " + L.of + " " + rounds.length + ", " + L.short + ")"
          : " " + L.of + " " + rounds.length
      ]);
      const phaseName = L.phases[dec.phase] || dec.phase;
      const phaseCard = (dec.card !== undefined && dec.card >= 0 && dec.active >= 0) ? "card-" + CARD_IDS[dec.card] : null;
      const phaseHelp = PHASE_HELP[dec.phase] || phaseCard;
      const phase = h("div", { class: "eg-phase" }, [
        h("span", { class: "eg-phase-name", text: phaseName }),
        phaseHelp ? helpLink(kit, phaseHelp, phaseName) : null
      ]);
      const pend = kit.pending;
      if (pend.length && dec.phase !== "over") {
        const w = h("span", { class: "eg-waiting" }, [L.waiting + ": "]);
        pend.forEach(function (p) { w.appendChild(kit.chip(p, { name: true, cls: "eg-chip-small" })); });
        phase.appendChild(w);
      }
      head.appendChild(h("div", { class: "eg-head-row" }, [roundTxt, track]));
      head.appendChild(phase);
      // the log's lines of the newest entry, as this viewer was told them
      const lastLines = kit.lastLines();
      const lastText = lastLines.length ? lastLines[0].text : "";
      if (lastText) {
        head.appendChild(h("div", { class: "eg-lastline" }, [
          h("span", { class: "eg-lastmark", "aria-hidden": "true" }),
          L.last + ": " + lastText
        ]));
      }
      return head;
    }

    // a seat chip (kit): the letter on the seat's colour, with the name where `named`
    function seatTag(p, named) { return kit.chip(p, { name: !!named }); }

    // -------------------------------------------------------------- map
    function renderMap() {
      const W = 620, H = 505;
      const root = svg("svg", { class: "eg-map", viewBox: "0 0 " + W + " " + H, role: "group", "aria-label": L.map, preserveAspectRatio: "xMidYMid meet", "data-anim-frame": "map" });
      root.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, class: "eg-sea", rx: 10 }));
      // land below regions (Portugal & France hint)
      root.appendChild(svg("path", { class: "eg-foreign", d: "M46,150 L160,156 L128,190 L122,238 L102,338 L96,362 L101,423 L60,428 L14,434 L24,382 L14,338 L32,300 L40,232 L50,176 Z" }));
      root.appendChild(svg("path", { class: "eg-foreign", d: "M362,42 L402,60 L466,74 L540,84 L612,98 L620,92 L620,0 L372,0 Z" }));

      const king = pub.king;
      const tiles = pub.tiles || [];
      const shown = pub.shown_picks || [];
      const anyShown = shown.some(function (x) { return x >= 0; });
      const sel = (dec.selected >= 0 && ["move", "select_region"].indexOf(dec.phase) >= 0 && dec.active >= 0) ? dec.selected : -1;
      const cab = pub.cab || [];

      // layer 1: land fills, layer 2: borders, layer 3: one group per region (hit area,
      // highlight outline, contents) so shared borders stay crisp under every overlay
      REGIONS.forEach(function (id, r) {
        root.appendChild(svg("polygon", { class: "eg-fill" + (r === king ? " eg-fill-king" : ""), points: polyPoints(SHAPES[id]), fill: FILLS[id] }));
      });
      REGIONS.forEach(function (id) {
        root.appendChild(svg("polygon", { class: "eg-border", points: polyPoints(SHAPES[id]) }));
      });
      closedBorders().forEach(function (pair) {
        const edge = sharedEdge(pair[0], pair[1]);
        if (edge.length > 1) root.appendChild(svg("polyline", { class: "eg-closed-border", points: polyPoints(edge) }));
      });
      const groups = [];
      REGIONS.forEach(function (id, r) {
        const g = svg("g", { class: "eg-region" + (r === king ? " eg-kingregion" : "") + (lastAreas.has(id) ? " last" : "") + (r === sel ? " eg-selected" : ""), "data-area": id });
        g.appendChild(title(areaName(r)));
        g.appendChild(svg("polygon", { class: "eg-shape eg-hit", points: polyPoints(SHAPES[id]) }));
        g.appendChild(svg("polygon", { class: "eg-outline", points: polyPoints(SHAPES[id]) }));
        groups.push(g);
        root.appendChild(g);
      });
      // pass 2: contents
      REGIONS.forEach(function (id, r) {
        const g = groups[r];
        const lay = layFor(id);
        // name + values
        g.appendChild(svg("text", { class: "eg-rname", x: lay.nx, y: lay.ny, "text-anchor": "middle" }, [areaName(r)]));
        let tileHere = -1;
        tiles.forEach(function (pos, t) { if (pos === r) tileHere = t; });
        const vals = VALUES[r];
        if (tileHere >= 0) {
          // the mobile scoreboard lies over the printed values and replaces them
          g.appendChild(tileMarker(lay.nx, lay.ny + 13, tileHere, true));
        } else {
          const changed = OVERRIDES["REGIONS." + id + ".values"] !== undefined;
          const vt = svg("text", { class: "eg-rvals" + (changed ? " eg-rvals-data" : ""), x: lay.nx, y: lay.ny + 14, "text-anchor": "middle" }, [vals.join(" · ")]);
          vt.appendChild(title(vals.join(" / ") + (changed ? " · " + L.dataValue : "")));
          g.appendChild(vt);
        }

        // token row: King, Grandes, disks
        const tokens = [];
        if (r === king) tokens.push({ w: 30, draw: function (x, y) { return anim(crown(x, y, lastKind === "king"), "king"); } });
        for (let p = 0; p < n; p++) {
          if ((pub.grande || [])[p] === r) {
            const pp = p;
            tokens.push({ w: 24, draw: function (x, y) { return anim(grandeMarker(x, y, pp, lastKind === "grande" && lastActor === pp), "grande-" + pp); } });
          }
        }
        // disks: last reveal, and the viewer's own committed disk
        if (anyShown) for (let p = 0; p < n; p++) if (shown[p] === r) { const pp = p; tokens.push({ w: 17, draw: function (x, y) { return anim(diskMarker(x, y, pp, false), "disk-" + pp); } }); }
        if (myPick === r && viewer !== null && viewer !== undefined) tokens.push({ w: 17, draw: function (x, y) { return anim(diskMarker(x, y, viewer, true), "mydisk"); } });
        const tw = tokens.reduce(function (s, t) { return s + t.w + 3; }, -3);
        let tx = lay.tx - tw / 2;
        tokens.forEach(function (t) { g.appendChild(t.draw(tx + t.w / 2, lay.ty)); tx += t.w + 3; });

        // caballero pills
        const present = [];
        for (let p = 0; p < n; p++) if (cab[p] && cab[p][r] > 0) present.push(p);
        present.forEach(function (p, k) {
          const pos = gridPos(k, present.length, lay.cols, lay.px, lay.py);
          const cx = pos[0], cy = pos[1];
          const pill = cabPill(cx, cy, p, cab[p][r], lastDest === r && lastSeatInArea === p);
          anim(pill, "cab-" + p + "-" + id, cab[p][r], "cab-" + p);
          const ms = kit.moves([{ kind: "move", from: id, owner: p }, { kind: "select_opponent", owner: p, area: id }]);
          kit.place(pill, ms, { label: seats[p].name + " · " + areaName(r) + (ms.length > 1 ? " (" + ms.length + " " + L.moves + ")" : "") });
          g.appendChild(pill);
        });

        const ms = kit.moves(namesArea(id));
        kit.place(g, ms, { label: areaName(r) + (ms.length > 1 ? " (" + ms.length + " " + L.moves + ")" : "") });
      });

      // Castillo
      root.appendChild(renderCastillo());
      // overlay: King's region, selected region and last move drawn above every region
      const over = svg("g", { class: "eg-overlay", "aria-hidden": "true" });
      REGIONS.forEach(function (id, r) {
        if (r === king) over.appendChild(svg("polygon", { class: "eg-ov eg-ov-king", points: polyPoints(SHAPES[id]) }));
      });
      REGIONS.forEach(function (id, r) {
        if (r === sel) over.appendChild(svg("polygon", { class: "eg-ov eg-ov-sel", points: polyPoints(SHAPES[id]) }));
      });
      REGIONS.forEach(function (id) {
        if (lastAreas.has(id)) over.appendChild(svg("polygon", { class: "eg-ov eg-ov-last", points: polyPoints(SHAPES[id]) }));
      });
      root.appendChild(over);
      // "?" beside each region's values, and on the Castillo
      const helps = svg("g", { class: "eg-help" });
      if (kit.rulesHref) {
        REGIONS.forEach(function (id, r) {
          const lay = layFor(id);
          const at = HELP_AT[id] || [44, 9];
          helps.appendChild(svgHelp(kit, lay.nx + at[0], lay.ny + at[1], "region-" + id, areaName(r)));
        });
        helps.appendChild(svgHelp(kit, CAST.x + CAST.w - 12, CAST.y + CAST.h - 12, "region-castillo", areaName(CASTILLO)));
        root.appendChild(helps);
      }
      // off-board tiles
      const off = [];
      tiles.forEach(function (pos, t) { if (pos < 0) off.push(t); });
      if (off.length) {
        const og = svg("g", { class: "eg-offboard" });
        og.appendChild(svg("text", { class: "eg-small-label", x: 52, y: 268, "text-anchor": "middle" }, [L.offBoard]));
        off.forEach(function (t, k) { og.appendChild(tileMarker(52, 286 + k * 28, t, false)); });
        root.appendChild(og);
      }
      return root;
    }

    function renderCastillo() {
      const id = "castillo";
      const g = svg("g", { class: "eg-region eg-castillo" + (lastAreas.has(id) ? " last" : ""), "data-area": id });
      g.appendChild(title(areaName(CASTILLO)));
      const x = CAST.x, y = CAST.y, w = CAST.w, hh = CAST.h;
      // tower with battlements
      let d = "M" + x + "," + (y + hh) + " L" + x + "," + (y + 14);
      const m = 7, step = w / m;
      for (let i = 0; i < m; i++) {
        const x0 = x + i * step, x1 = x0 + step;
        if (i % 2 === 0) d += " L" + x0 + "," + y + " L" + x1 + "," + y + " L" + x1 + "," + (y + 14);
        else d += " L" + x1 + "," + (y + 14);
      }
      d += " L" + (x + w) + "," + (y + hh) + " Z";
      g.appendChild(svg("path", { class: "eg-shape eg-tower", d: d }));
      g.appendChild(svg("path", { class: "eg-outline" + (lastAreas.has(id) ? " eg-outline-last" : ""), d: d }));
      g.appendChild(svg("text", { class: "eg-rname", x: x + w / 2, y: y + 32, "text-anchor": "middle" }, [areaName(CASTILLO)]));
      g.appendChild(svg("text", { class: "eg-rvals", x: x + w / 2, y: y + 45, "text-anchor": "middle" }, [CASTILLO_VALUES.join(" · ")]));
      const cab = pub.cab || [];
      const open = pub.castillo_open || dec.phase === "over" || (pub.ranks !== null && pub.ranks !== undefined);
      const present = [];
      let total = 0;
      for (let p = 0; p < n; p++) { const c = (cab[p] || [])[CASTILLO] || 0; total += c; if (c > 0) present.push(p); }
      if (open) {
        present.forEach(function (p, k) {
          const pos = gridPos(k, present.length, present.length > 3 ? 2 : 1, x + w / 2, y + 54);
          const cx = pos[0], cy = pos[1];
          g.appendChild(anim(cabPill(cx, cy, p, cab[p][CASTILLO], lastDest === CASTILLO && lastSeatInArea === p), "cab-" + p + "-castillo", cab[p][CASTILLO], "cab-" + p));
        });
      } else {
        // closed tower: only how many caballeros are inside
        const t = svg("g", { class: "eg-casttotal" + (lastDest === CASTILLO ? " last" : "") });
        counter(t, "castillo", total, Array.from({ length: n }, function (_, p) { return "cab-" + p; }).join(" "));
        t.appendChild(svg("rect", { x: x + w / 2 - 26, y: y + 58, width: 52, height: 36, rx: 6, class: "eg-door" }));
        t.appendChild(svg("text", { class: "eg-casttotal-n", x: x + w / 2, y: y + 82, "text-anchor": "middle" }, [String(total)]));
        t.appendChild(svg("text", { class: "eg-small-label eg-onstone", x: x + w / 2, y: y + 108, "text-anchor": "middle" }, [L.cabs]));
        t.appendChild(svg("text", { class: "eg-small-label eg-onstone", x: x + w / 2, y: y + 120, "text-anchor": "middle" }, ["(" + L.hidden + ")"]));
        t.appendChild(title(total + " " + L.cabs));
        g.appendChild(t);
      }
      const ms = kit.moves(namesArea(id));
      kit.place(g, ms, { label: areaName(CASTILLO) + (ms.length > 1 ? " (" + ms.length + " " + L.moves + ")" : "") });
      return g;
    }

    function cabPill(x, y, p, count, isLast) {
      const s = seats[p];
      const g = svg("g", { class: "eg-cab" + (isLast ? " last" : "") });
      if (isLast) g.appendChild(svg("rect", { x: x - 3, y: y - 3, width: PILL_W + 6, height: PILL_H + 6, rx: PILL_H / 2 + 3, class: "eg-cab-lastring" }));
      g.appendChild(svg("rect", { x: x, y: y, width: PILL_W, height: PILL_H, rx: PILL_H / 2, fill: s.colour, class: "eg-cab-bg" }));
      g.appendChild(svg("text", { x: x + PILL_W / 2, y: y + PILL_H / 2 + 4.5, "text-anchor": "middle", class: "eg-cab-t", fill: s.ink }, [s.letter + " " + count]));
      g.appendChild(title(s.name + ": " + count + " " + L.cabs));
      return g;
    }
    function grandeMarker(x, y, p, isLast) {
      const s = seats[p];
      const g = svg("g", { class: "eg-grande" + (isLast ? " last" : "") });
      g.appendChild(svg("rect", { x: x - 11, y: y - 11, width: 22, height: 22, rx: 3, fill: s.colour, class: "eg-grande-bg" }));
      g.appendChild(svg("rect", { x: x - 7.5, y: y - 7.5, width: 15, height: 15, rx: 1.5, fill: "none", stroke: s.ink, "stroke-width": 1, opacity: 0.55 }));
      g.appendChild(svg("text", { x: x, y: y + 4.5, "text-anchor": "middle", class: "eg-grande-t", fill: s.ink }, [s.letter]));
      g.appendChild(title(L.grande + " " + s.name));
      return g;
    }
    function crown(x, y, isLast) {
      const g = svg("g", { class: "eg-king" + (isLast ? " last" : "") });
      const d = "M" + (x - 13) + "," + (y + 9) + " L" + (x - 14) + "," + (y - 7) + " L" + (x - 6) + "," + (y) +
        " L" + x + "," + (y - 11) + " L" + (x + 6) + "," + y + " L" + (x + 14) + "," + (y - 7) + " L" + (x + 13) + "," + (y + 9) + " Z";
      g.appendChild(svg("path", { d: d, class: "eg-crown" }));
      g.appendChild(svg("circle", { cx: x, cy: y - 12, r: 2.2, class: "eg-crown-gem" }));
      g.appendChild(svg("circle", { cx: x - 14, cy: y - 8, r: 2, class: "eg-crown-gem" }));
      g.appendChild(svg("circle", { cx: x + 14, cy: y - 8, r: 2, class: "eg-crown-gem" }));
      g.appendChild(title(L.king));
      return g;
    }
    function tileMarker(x, y, t, onMap) {
      const g = svg("g", { class: "eg-tile" + ((lastKind === "tile" || lastKind === "move_tile") && lastParts[1] === String(t) ? " last" : "") });
      g.setAttribute("data-anim", "tile-" + t);
      if (onMap) {
        g.appendChild(svg("rect", { x: x - 26, y: y - 8.5, width: 52, height: 17, rx: 3, class: "eg-tile-bg" }));
        g.appendChild(svg("text", { x: x, y: y + 4.5, "text-anchor": "middle", class: "eg-tile-t" }, [TILES[t].join(" · ")]));
      } else {
        g.appendChild(svg("rect", { x: x - 25, y: y - 11, width: 50, height: 22, rx: 3, class: "eg-tile-bg" }));
        g.appendChild(svg("text", { x: x, y: y + 4.5, "text-anchor": "middle", class: "eg-tile-t" }, [TILES[t].join(" · ")]));
      }
      g.appendChild(title(L.tile + " " + TILES[t].join(" · ")));
      if (!onMap) kit.place(g, [{ kind: "tile", tile: t }, { kind: "move_tile", tile: t }], { label: L.tile + " " + TILES[t].join(" · ") });
      return g;
    }
    function diskMarker(x, y, p, own) {
      const s = seats[p];
      const g = svg("g", { class: "eg-disk" + (own ? " eg-disk-own" : "") + (!own && dec.phase === "disk" ? " eg-disk-old" : "") });
      g.appendChild(svg("circle", { cx: x, cy: y, r: 8, fill: s.colour, class: "eg-disk-bg" }));
      g.appendChild(svg("text", { x: x, y: y + 3.5, "text-anchor": "middle", class: "eg-disk-t", fill: s.ink }, [s.letter]));
      g.appendChild(title(own ? L.yourDisk : (L.legendDisk + ": " + s.name)));
      return g;
    }

    function renderLegend() {
      const lg = h("div", { class: "eg-legend" });
      function item(svgEl, text) {
        const s = svg("svg", { viewBox: "0 0 46 26", width: 40, height: 22, "aria-hidden": "true" }, [svgEl]);
        lg.appendChild(h("span", { class: "eg-legend-item" }, [s, text]));
      }
      const ex = seats.length ? 0 : -1;  // legend samples use seat A's colour
      if (ex === 0) {
        item(cabPill(3, 2, 0, 3, false), L.legendCab);
        item(grandeMarker(23, 13, 0, false), L.legendGrande);
      }
      item(crown(23, 15, false), L.legendKing);
      const t = svg("g", null, [svg("rect", { x: 1, y: 4, width: 44, height: 18, rx: 3, class: "eg-tile-bg" }), svg("text", { x: 23, y: 17, "text-anchor": "middle", class: "eg-tile-t eg-tile-t-s" }, ["8·4·0"])]);
      item(t, L.legendTile);
      if (ex === 0 && (pub.shown_picks || []).some(function (x) { return x >= 0; })) item(diskMarker(23, 13, 0, false), L.disksShown);
      item(svg("rect", { x: 4, y: 4, width: 38, height: 18, rx: 4, class: "eg-legend-last" }), L.legendLast);
      if (closedBorders().length) item(svg("line", { x1: 4, y1: 13, x2: 42, y2: 13, class: "eg-closed-border" }), L.legendNoBorder);
      return lg;
    }

    // -------------------------------------------------------------- current card / action
    function renderCurrent() {
      const c = dec.card;
      if (c === undefined || c < 0 || dec.active === undefined || dec.active < 0) return null;
      const id = CARD_IDS[c];
      const box = h("section", { class: "eg-current" });
      box.appendChild(h("h3", { class: "eg-h" }, [L.current + " ", seatTag(dec.active, true)]));
      const card = actionCard(id, false);
      card.classList.add("eg-card-current");
      if (lastKind === "take" && lastParts[1] === id) card.classList.add("last");
      kit.place(card, [{ kind: "action_first" }, { kind: "do_action" }, { kind: "mode_all_out" }, { kind: "mode_extra" }], { label: cardMsg(id) });
      const row = h("div", { class: "eg-current-row" }, [helpWrap(kit, card, "card-" + id, cardMsg(id))]);
      const info = h("div", { class: "eg-current-info" });
      const ph = dec.phase;
      const lines = [];
      if (ph === "place") lines.push(fmt(L.placed, dec.placed, dec.place_limit));
      if (ph === "move") {
        if (dec.move_mode === "mixed") lines.push(fmt(L.mixedLeft, dec.budget_own, dec.budget_opp));
        else if (dec.move_mode === "allout") lines.push(fmt(L.allOut, dec.selected >= 0 ? areaName(dec.selected) : "?"));
        else lines.push(fmt(L.movesLeft, dec.budget_own));
        if (dec.move_mode === "region" && dec.selected >= 0) lines.push(fmt(L.inRegion, areaName(dec.selected)));
      }
      if (ph === "place_extra") lines.push(fmt(L.extraLeft, dec.budget_own));
      if (ph === "intake_from" || ph === "court_from") lines.push(fmt(L.intakeLeft, dec.intake_left));
      if (ph === "return_from") {
        lines.push(fmt(L.retLeft, dec.returns_left));
      }
      info.appendChild(h("div", { class: "eg-phase-small", text: L.phases[ph] || ph }));
      lines.forEach(function (t) { info.appendChild(h("div", { text: t })); });
      if (ph === "return_from" && (dec.to_act || []).length) {
        const w = h("div", null, [L.toAct + ": "]);
        dec.to_act.forEach(function (p) { w.appendChild(seatTag(p, true)); });
        info.appendChild(w);
      }
      row.appendChild(info);
      box.appendChild(row);
      return box;
    }

    function actionCard(id, small) {
      const stack = id.charAt(0);
      const el = h("div", { class: "eg-card eg-stack" + stack + (small ? " eg-card-s" : "") }, [
        h("div", { class: "eg-card-id", text: id }),
        h("div", { class: "eg-card-name", text: cardName(id) })
      ]);
      el.title = cardMsg(id);
      el.setAttribute("data-anim", "card-" + id);
      return el;
    }

    // -------------------------------------------------------------- offer
    function renderOffer() {
      const sec = h("section", { class: "eg-offer", "data-anim-frame": "offer" });
      sec.appendChild(h("h3", { class: "eg-h" }, [L.offer, helpLink(kit, "cards", L.offer)]));
      const row = h("div", { class: "eg-cards" });
      const ids = pub.offer_ids || [];
      const inTurns = TURN_PHASES.indexOf(dec.phase) >= 0 || (dec.phase === "disk" && dec.pick_kind > 0);
      const curId = (dec.card >= 0 && dec.active >= 0) ? CARD_IDS[dec.card] : null;
      for (let k = 1; k <= 5; k++) {
        let id = null;
        if (k < 5) { ids.forEach(function (x) { if (x.charAt(0) === String(k)) id = x; }); }
        else if (pub.king_card) id = "5A";
        if (id) {
          const card = actionCard(id, true);
          if (lastActor < 0 && lastKind === "reveal" && lastParts[1] === id) card.classList.add("last");
          kit.place(card, { kind: "take", card: id }, { label: msg("eg.opt.take", { card: cardMsg(id) }) });
          row.appendChild(helpWrap(kit, card, "card-" + id, cardMsg(id)));
        } else {
          // slot empty: taken this round (during the turns) or nothing on offer
          const held = curId && curId.charAt(0) === String(k);
          const slot = h("div", { class: "eg-card eg-card-s eg-card-empty eg-stack" + k + (held ? " eg-card-held" : "") });
          slot.appendChild(h("div", { class: "eg-card-id", text: held ? curId : (k === 5 ? "5A" : String(k)) }));
          let txt = L.nothing;
          if (k === 5 && !pub.king_card) txt = L.taken;
          else if (inTurns) txt = L.taken;
          const sub = h("div", { class: "eg-card-name" }, [txt]);
          if (held) { sub.textContent = ""; sub.appendChild(seatTag(dec.active, false)); sub.appendChild(document.createTextNode(" " + L.taken)); }
          slot.appendChild(sub);
          if (k === 5) slot.title = L.kingCard;
          row.appendChild(slot);
        }
      }
      sec.appendChild(row);
      return sec;
    }

    // -------------------------------------------------------------- hand (viewer's power cards)
    function renderHand() {
      if (viewer === null || viewer === undefined || !mine || !Array.isArray(mine.hand)) return null;
      const sec = h("section", { class: "eg-hand", "data-anim-frame": "hand" });
      sec.appendChild(h("h3", { class: "eg-h" }, [L.yourHand + " ", seatTag(viewer, false), helpLink(kit, "power-cards", L.yourHand)]));
      const row = h("div", { class: "eg-powers" });
      const inHand = new Set(mine.hand);
      const back = new Set(mine.taken_back || []);
      for (let val = 1; val <= 13; val++) {
        const has = inHand.has(val);
        const now = (pub.power_now || [])[viewer] === val;
        const cls = "eg-power" + (has ? "" : " eg-power-played") + (now ? " eg-power-now" : "") + (back.has(val) && has ? " eg-power-back" : "");
        const el = h("div", { class: cls, title: L.power + " " + val + " · " + POWER_CAB[val] + " " + L.caballerosIntoCourt }, [
          h("span", { class: "eg-power-v", text: String(val) }),
          h("span", { class: "eg-power-c", text: "▪" + POWER_CAB[val] })
        ]);
        if (lastActor === viewer && ((lastKind === "power" || lastKind === "take_back") && lastParts[1] === String(val))) el.classList.add("last");
        if (has) el.setAttribute("data-anim", "power-" + viewer + "-" + val);
        kit.place(el, [{ kind: "power", value: val }, { kind: "take_back", value: val }], { label: L.power + " " + val });
        row.appendChild(el);
      }
      sec.appendChild(row);
      return sec;
    }

    // -------------------------------------------------------------- seats
    function renderSeats() {
      const sec = h("section", { class: "eg-seats" });
      const turnPhase = TURN_PHASES.indexOf(dec.phase) >= 0;
      if (turnPhase && (pub.order || []).length) {
        const o = h("div", { class: "eg-order" }, [L.order + ": "]);
        pub.order.forEach(function (p, k) {
          const t = seatTag(p, false);
          if (k < pub.turn_index) t.classList.add("eg-done");
          if (p === dec.active) t.classList.add("eg-active");
          o.appendChild(t);
          if (k < pub.order.length - 1) o.appendChild(h("span", { class: "eg-arrow", text: "›" }));
        });
        sec.appendChild(o);
      }
      for (let p = 0; p < n; p++) sec.appendChild(seatPanel(p, seats[p].pending));
      return sec;
    }

    function seatPanel(p, pending) {
      const s = seats[p];
      const isViewer = p === viewer;
      const panel = h("div", { class: "eg-seat" + (pending ? " eg-pending" : "") + (isViewer ? " eg-me" : "") + (p === lastActor ? " eg-lastactor" : ""), style: { borderColor: s.colour }, "data-anim-frame": "seat-" + p });
      const head = h("div", { class: "eg-seat-head" });
      head.appendChild(h("span", { class: "eg-seat-letter", style: { background: s.colour, color: s.ink }, text: s.letter }));
      head.appendChild(h("span", { class: "eg-seat-name", text: s.name + (isViewer ? " (" + L.you + ")" : "") }));
      if (pending && dec.phase !== "over") {
        head.appendChild(h("span", { class: "eg-badge eg-badge-act" }, ["▶ " + L.toAct, s.thinking ? kit.dots() : null]));
      }
      if (pub.ranks && pub.ranks[p]) head.appendChild(h("span", { class: "eg-badge eg-badge-rank" + (pub.ranks[p] === 1 ? " eg-win" : ""), text: (pub.ranks[p] === 1 ? "★ " : "") + L.rank[pub.ranks[p] - 1] }));
      const pts = (pub.scores || [])[p] || 0;
      head.appendChild(h("span", { class: "eg-score", title: L.score }, [h("strong", { text: String(pts) }), " " + (pts === 1 ? L.point : L.score)]));
      panel.appendChild(head);

      const stats = h("div", { class: "eg-stats" });
      const court = h("span", { class: "eg-stat eg-court" + (p === lastActor && (lastKind === "intake" || lastKind === "intake_from") ? " last" : "") }, [L.court + " ", h("strong", { text: String((pub.court || [])[p]) })]);
      if (isViewer) kit.place(court, [{ kind: "return", from: "court" }, { kind: "intake" }], { label: L.court });
      counter(court, "court-" + p, (pub.court || [])[p], "cab-" + p);
      stats.appendChild(court);
      stats.appendChild(counter(h("span", { class: "eg-stat" }, [L.province + " ", h("strong", { text: String((pub.province || [])[p]) })]), "province-" + p, (pub.province || [])[p], "cab-" + p));
      const gr = (pub.grande || [])[p];
      stats.appendChild(h("span", { class: "eg-stat" }, [L.grande + ": ", h("strong", { text: gr >= 0 ? areaName(gr) : L.nothing })]));
      panel.appendChild(stats);

      // power cards: played log, the card of this round, hand size
      const pw = h("div", { class: "eg-plog" });
      pw.appendChild(h("span", { class: "eg-plog-l", text: L.played + ":" }));
      const log = (pub.power_log || [])[p] || [];
      const nowV = (pub.power_now || [])[p] || 0;
      log.forEach(function (val, k) {
        const isNow = nowV > 0 && val === nowV && k === log.lastIndexOf(nowV);
        const chip = h("span", { class: "eg-chip" + (val === 0 ? " eg-chip-back" : "") + (isNow ? " eg-chip-now" : ""), title: val === 0 ? L.takenBack : (L.power + " " + val) }, [val === 0 ? "↩" : String(val)]);
        if (p === lastActor && k === log.length - 1 && (lastKind === "power" || lastKind === "take_back")) chip.classList.add("last");
        // (a card taken back into the viewer's hand is keyed there, not in the log; a card taken
        // back and played again shows twice in the log: only its last showing is the card)
        if (val > 0 && k === log.lastIndexOf(val) && !(isViewer && mine && (mine.hand || []).indexOf(val) >= 0)) {
          chip.setAttribute("data-anim", "power-" + p + "-" + val);
          chip.setAttribute("data-anim-from", "hand-" + p);
        }
        pw.appendChild(chip);
      });
      if (!log.length) pw.appendChild(h("span", { class: "eg-muted", text: L.nothing }));
      pw.appendChild(counter(h("span", { class: "eg-handsize", text: "· " + ((pub.hand_sizes || [])[p]) + " " + L.handCount }), "hand-" + p));
      panel.appendChild(pw);

      // Veto!, disk state
      const badges = h("div", { class: "eg-badges" });
      const vetos = (pub.veto || [])[p] || [];
      if (vetos.length) {
        const rounds = pub.rounds || [];
        const vb = h("span", { class: "eg-badge eg-veto" + (p === lastActor && (lastKind === "veto" || lastKind === "allow") ? " last" : "") },
          [L.veto + (vetos.length > 1 ? " ×" + vetos.length : "") + " (" + L.round + " " + vetos.map(function (ri) { return rounds[ri] !== undefined ? rounds[ri] : ri + 1; }).join(", ") + ")"]);
        if (isViewer) kit.place(vb, { kind: "veto" }, { label: L.veto });
        badges.appendChild(vb);
      } else if (p === lastActor && lastKind === "veto") {
        badges.appendChild(h("span", { class: "eg-badge eg-veto eg-veto-used last", text: L.veto + " ✓" }));
      }
      if (dec.phase === "disk" && (dec.pick_seats || []).indexOf(p) >= 0) {
        const done = (pub.committed || [])[p];
        let t = done ? "◉ " + L.diskSet : "○ " + L.diskWait;
        if (isViewer && myPick >= 0) t = "◉ " + L.yourDisk + ": " + areaName(myPick);
        badges.appendChild(h("span", { class: "eg-badge " + (done || (isViewer && myPick >= 0) ? "eg-disk-done" : "eg-disk-wait") + (p === lastActor && lastKind === "disk" ? " last" : ""), text: t }));
      }
      if (badges.childNodes.length) panel.appendChild(badges);
      return panel;
    }
  }

  window.TableroBoards = window.TableroBoards || {};
  window.TableroBoards["el-grande"] = { render: render };
})();
