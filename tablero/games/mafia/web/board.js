/* Mafia Legend: the table drawing ("board presenter") of the tablero web client.
 * Plain ES2020, no modules, no libraries. Contract: window.TableroBoards["mafia-legend"].render(root, payload, kit)
 * (kit: boardkit.js). Card names keep the German names of the seeds.
 */
(function () {
  "use strict";

  // ------------------------------------------------------------------ card data
  // Filled once from kit.data (Game.table_data, built from tablero/games/mafia/data.py), so the
  // board never keeps its own copy of the (R) card values.
  // A table's data overrides (--data) are in it: constants (HAND_LIMIT, PAYDAY_MONTHS, ...) fill
  // the {NAME} places of the labels below; a table with other data loads again.
  const ACT = {}, CHR = {}, JOB = {}, EVENTS = {}, MISSIONS = {}, MONEY = {};
  const POWERS = [];
  const CONST = { MONTHS: 12, PHASES: 3, PAYDAY_MONTHS: [3, 6, 9] };
  let loaded = null;
  function loadData(d) {
    if (loaded === d || !d || !d.actions) return;
    loaded = d;
    for (const o of [ACT, CHR, JOB, EVENTS, MISSIONS, MONEY]) for (const k of Object.keys(o)) delete o[k];
    POWERS.length = 0;
    Object.assign(CONST, d.constants || {});
    CONST.CURFEW_ORSINI = 2 * (CONST.CURFEW_LIMIT || 1);
    for (const lang of Object.keys(LBL_SRC)) LBL[lang] = fillLabels(LBL_SRC[lang]);
    for (const c of d.actions) {
      if (c.kind === "attack") {
        ACT[c.id] = { id: c.id, n: c.name, k: "attack", sym: c.symbol, st: c.stars, eye: c.eye, fi: c.fist, dl: c.dollar, di: 0, tag: "" };
      } else if (c.kind === "defence") {
        ACT[c.id] = { id: c.id, n: c.name, k: "defence", cov: c.covers, str: c.strength, fi: 0, dl: 0, di: 0, tag: "" };
      } else {
        ACT[c.id] = { id: c.id, n: c.name, k: "tool", tag: c.tag, di: c.dice, fi: c.fist, dl: c.dollar };
      }
    }
    for (const c of d.characters) {
      CHR[c.id] = { id: c.id, n: c.name, c: c.colour, inf: c.influence, br: c.bribe, bl: c.blackmail, d: c.dollars,
        sym: c.symbol, gift: c.gift, set: c.set, four: c.four_only };
    }
    for (const j of d.jobs) JOB[j.id] = { id: j.id, n: j.name, sum: j.dice_sum, tags: j.tags, ep: j.ep, d: j.dollar, fail: j.failure };
    for (const p of d.powers) POWERS.push({ id: p.id, n: p.name, th: p.threshold, vp: p.vp });
    Object.assign(EVENTS, d.events);
    Object.assign(MISSIONS, d.missions);
    Object.assign(MONEY, d.money);
  }

  // preferred break points of long German names ("|"), for wrapping and soft hyphens
  const HY = {};
  ("Groß|razzia Anonymer Hin|weis Über|fall aus dem Auto Ab|werbung Verlocken|des Angebot Doppel|spiel Schlag|zeile Enthül|lung " +
    "Leib|wächter Familien|ehre Unter|tauchen Last|wagen Flucht|wagen Maschinen|pistole Schlag|ring Whiskey|kiste Schwarz|brennerei " +
    "Diet|rich Dyna|mit Bau|plan Schlä|ger Droh|brief Kompro|mittierende Fotos Tipp|geber " +
    "Bürger|meister Ausschuss|vorsitzender Partei|boss Stadt|rat Bezirks|vorsteher Rennstall|besitzer Wahlkampf|leiter Lobby|ist " +
    "Polizei|präsident Staats|anwalt Gefängnis|direktor Streifen|polizist Box|kommissar Prohibitions|agent Hafen|polizist " +
    "Ree|der Film|studio Nachtclub|besitzer Waffen|händler Bau|unternehmer Brauerei|besitzer Pfand|leiher " +
    "Chef|redakteur Enthüllungs|reporter Radio|moderator Film|star Presse|fotograf Sport|reporter Klatsch|kolumnistin Zeitungs|junge " +
    "Gewerkschafts|boss Pfar|rer Preis|boxer Jazz|sängerin Baseball|star Jo|ckey Hafen|arbeiter Privat|detektiv " +
    "Flüster|kneipe be|liefern Schutz|geld ein|treiben Zeugen ein|schüchtern aus|bauen Schnaps|schmuggel Lager|haus aus|räumen " +
    "Kasino|nacht Streik bre|chen Wett|büro aus|nehmen Pferde|rennen mani|pulieren Hafen|lieferung ab|fangen Boot aus Kanada " +
    "Lastwagen|konvoi Tresor kna|cken Juwelier|raub Falschgeld|druckerei Geld|transporter Bank|überfall")
    .split(" ").forEach((w) => { if (w.includes("|")) HY[w.replace(/\|/g, "")] = w; });
  const marked = (name) => String(name).split(" ").map((w) => HY[w] || w).join(" ");
  const shy = (name) => marked(name).replace(/\|/g, "\u00ad");

  const TAGS = { Fz: "Fahrzeug", Wa: "Waffe", Sc: "Schnaps", Wz: "Werkzeug" };
  const TAG_ABBR = { Fahrzeug: "Fz", Waffe: "Wa", Schnaps: "Sc", Werkzeug: "Wz" };
  const PCOL = { POL: "#7d3c98", STA: "#1f5fa8", WIR: "#b07d10", PRE: "#4a4a4a", BEV: "#2e7d32" };
  const FAM = {
    moretti: { n: "Moretti", col: "#d62828", ab: "Geldwäsche" },
    rinaldi: { n: "Rinaldi", col: "#2f5bd3", ab: "Spitzel" },
    orsini: { n: "Orsini", col: "#15803d", ab: "Großoffensive" },
    lombardo: { n: "Lombardo", col: "#e3b505", ab: "Schutzengel" },
    santori: { n: "Santori", col: "#a21caf", ab: "Gezinkte Würfel" },
    barone: { n: "Barone", col: "#f4f4f4", ab: "Familienbande" },
  };
  const FAMILY_IDS = ["moretti", "rinaldi", "orsini", "lombardo", "santori", "barone"];
  const FIELDS = ["job", "k1", "k2", "k3", "k4"];

  // ------------------------------------------------------------------ labels (own words, both languages)
  const LBL = {
    en: {
      months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
      mon: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
      month: "Month", phase: "Phase", goal: "Goal", vp: "VP", beginner: "Beginner game", advanced: "Advanced game",
      missions: "with missions", payday: "payday", order: "Turn order", attack: "Attack", job: "Job",
      noJob: "no open job (closed)", emptySlot: "empty slot (closed)", closed: "closed", powers: "Power cards",
      unheld: "unheld", heldBy: "held by", you: "you", spectator: "Spectator", toAct: "to act",
      startPlayer: "start player (poker chip)", sitsOut: "sits out", phases: "phase(s)",
      ashtray: "Ashtray", ashtrayFree: "free", ashtrayTaken: "taken",
      hand: "Hand", screen: "Screen", discs: "Discs", characters: "Characters", jobsDone: "Jobs done",
      sets: "Sets", ability: "Ability", abilityUsed: "used", abilityReady: "unused", influence: "Influence",
      acquired: "acquired this month", yourHand: "Your hand", moneyHand: "Money in your hand",
      behindScreen: "Behind your screen", mission: "Your mission", missionHidden: "mission (hidden)",
      events: "Events", thisMonth: "this month", nextMonth: "next month", eventsOut: "out of the game",
      chooseEvent: "Choose the event to keep", eventBottom: "under the event deck",
      decks: "Decks", discards: "Discard piles", jobBottom: "under the job deck", charDiscard: "discarded characters",
      dice: "Dice", lastRoll: "last roll", sum: "sum", needs: "needs",
      last: "Last move", reveals: "Revealed at month end",
      winners: "Game over — winner", noWinner: "Game over — nobody wins", over: "Game over",
      publicMoney: "money (hand / screen)", missionOf: "mission",
      backHand: "from hand", backScreen: "from screen (money)", faceDown: "face down", faceUp: "face up",
      onlyYou: "face down: only you see it", revealed: "revealed", ignored: "ignored (star rule)", attacker: "attacker",
      defence: "defence", protectDisc: "protected (disc)", protectShort: "protected", resolveNow: "resolves now", resolveME: "month end",
      kinds: { attack: "Attack", defence: "Defence", tool: "Tool", money: "Money" },
      sym: { badge: "police badge", cross: "crosshair", hand: "handshake", star: "star" },
      fist: "fist", diceSym: "dice", dollar: "$", eye: "eye (may be played face up)", cancel: "cancels the attack",
      covers: "covers", strength: "strength", bribe: "bribe min.", blackmail: "blackmail min.",
      notBribe: "cannot be bribed", notBlackmail: "cannot be blackmailed", paydaySigns: "$ signs (payday)",
      gift: "gift", symL: "magnifier (Lupe)", symE: "E: draw {E_DRAW} events, keep 1", symA: "A: may draw {A_DRAW} action cards",
      fourOnly: "4 players only", dieSum: "dice sum", tagsInstead: "or cards", failure: "failure: sits out",
      doneMonth: "done this month", star: "a star card was evaluated this month end",
      setAside: "set aside", pickFamily: "Choose your family", taken: "taken",
      cardsFace: "card(s)", moved: "money moved this turn", toHandN: "to hand", toScreenN: "to screen",
      steps: { 1: "step 1: disc", 2: "step 2: play cards", 3: "step 3: job attempt", 4: "step 4: draw" },
      pend: {
        family: "chooses a family", turn: "turn", discard: "discards down to {HAND_LIMIT}", discards: "discards",
        magnifier: "magnifier: discards down to {MAGNIFIER_LIMIT}", audit: "tax audit: discards money down to {EV08_LIMIT}",
        guardian: "Schutzengel?", defend: "defends?", raid: "chooses a field to raid", hit: "chooses a character to hit",
        hand_over: "hands over a character", job_roll: "job: roll or abandon", reroll: "Gezinkte Würfel: reroll?",
        family_ties: "Familienbande?", choose_event: "chooses an event", a_draw: "draws {A_DRAW} action cards?",
        politik: "Politik: may change place in the turn order", spitzel_column: "Spitzel: chooses a column",
        spitzel_take: "Spitzel: takes cards back", chance_draw: "draws", chance_roll: "dice roll",
      },
      me: { 1: "ME1 attack column", 2: "ME2 job column", 3: "ME3 character columns", 4: "ME4 refill", 5: "ME5 power VP",
        6: "ME6 monthly bonus", 7: "ME7 income", 8: "ME8 job rotation", 9: "ME9 cleanup", 10: "ME10", 11: "ME11 turn order", 12: "ME12 new month" },
      monthEnd: "Month end", grossoffensive: "Großoffensive: up to {ORSINI_LIMIT} cards", played: "played",
      evfx: {
        EV01: "Bribe minimums −{EV01_BRIBE} (not below 1)", EV02: "Badge attacks +{EV02_FIST} fist", EV03: "No crosshair cards in attack fields",
        EV04: "No face-up attacks", EV05: "Evaluated star card: double effect", EV06: "Job dice sums −{EV06_DICE}",
        EV07: "Gift characters +{EV07_GIFT} VP", EV08: "ME7: more than {EV08_LIMIT} money cards → discard to {EV08_LIMIT}", EV09: "Two ashtray discs earn a reward",
        EV10: "Defence strength −{EV10_DEFENCE}", EV11: "Cards per turn: at most {CURFEW_LIMIT} (Orsini {CURFEW_ORSINI})", EV12: "Each player draws 1 money card",
        EV13: "Monthly bonus doubled", EV14: "No handshake cards in attack fields", EV15: "Completed jobs: +{EV15_MONEY} money cards",
        EV16: "No discs may be placed",
      },
      pfx: { POL: "ME11: may change place in the turn order", STA: "badge attacks on the holder fail", WIR: "+1 money card at ME7",
        PRE: "star attacks on the holder fail", BEV: "wins monthly-bonus ties" },
      deckNames: { A: "Action", M: "Money", C: "Character", J: "Job", E: "Event", X: "Mission" },
    },
    de: {
      months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
      mon: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
      month: "Monat", phase: "Phase", goal: "Ziel", vp: "SP", beginner: "Einsteigerspiel", advanced: "Fortgeschrittenenspiel",
      missions: "mit Aufträgen", payday: "Zahltag", order: "Zugreihenfolge", attack: "Angriff", job: "Job",
      noJob: "kein offener Job (geschlossen)", emptySlot: "leerer Platz (geschlossen)", closed: "geschlossen", powers: "Machtkarten",
      unheld: "frei", heldBy: "bei", you: "du", spectator: "Zuschauer", toAct: "am Zug",
      startPlayer: "Startspieler (Pokerchip)", sitsOut: "setzt aus", phases: "Phase(n)",
      ashtray: "Aschenbecher", ashtrayFree: "frei", ashtrayTaken: "belegt",
      hand: "Hand", screen: "Schirm", discs: "Scheiben", characters: "Charaktere", jobsDone: "Erledigte Jobs",
      sets: "Sets", ability: "Fähigkeit", abilityUsed: "benutzt", abilityReady: "unbenutzt", influence: "Einfluss",
      acquired: "diesen Monat erworben", yourHand: "Deine Hand", moneyHand: "Geld auf deiner Hand",
      behindScreen: "Hinter deinem Schirm", mission: "Dein Auftrag", missionHidden: "Auftrag (verdeckt)",
      events: "Ereignisse", thisMonth: "diesen Monat", nextMonth: "nächsten Monat", eventsOut: "aus dem Spiel",
      chooseEvent: "Wähle das Ereignis, das du behältst", eventBottom: "unter dem Ereignisstapel",
      decks: "Stapel", discards: "Ablagestapel", jobBottom: "unter dem Jobstapel", charDiscard: "abgelegte Charaktere",
      dice: "Würfel", lastRoll: "letzter Wurf", sum: "Summe", needs: "braucht",
      last: "Letzter Zug", reveals: "Aufgedeckt am Monatsende",
      winners: "Spielende — Sieger", noWinner: "Spielende — kein Sieger", over: "Spielende",
      publicMoney: "Geld (Hand / Schirm)", missionOf: "Auftrag",
      backHand: "von der Hand", backScreen: "vom Schirm (Geld)", faceDown: "verdeckt", faceUp: "offen",
      onlyYou: "verdeckt: nur du siehst sie", revealed: "aufgedeckt", ignored: "ignoriert (Sternregel)", attacker: "Angreifer",
      defence: "Abwehr", protectDisc: "geschützt (Scheibe)", protectShort: "geschützt", resolveNow: "sofort", resolveME: "Monatsende",
      kinds: { attack: "Angriff", defence: "Abwehr", tool: "Ausrüstung", money: "Geld" },
      sym: { badge: "Polizeimarke", cross: "Fadenkreuz", hand: "Handschlag", star: "Stern" },
      fist: "Faust", diceSym: "Würfel", dollar: "$", eye: "Auge (darf offen gespielt werden)", cancel: "hebt den Angriff auf",
      covers: "deckt", strength: "Stärke", bribe: "Bestechung ab", blackmail: "Erpressung ab",
      notBribe: "nicht bestechlich", notBlackmail: "nicht erpressbar", paydaySigns: "$-Zeichen (Zahltag)",
      gift: "Geschenk", symL: "Lupe", symE: "E: {E_DRAW} Ereignisse ziehen, 1 behalten", symA: "A: darf {A_DRAW} Aktionskarten ziehen",
      fourOnly: "nur mit 4 Spielern", dieSum: "Würfelsumme", tagsInstead: "oder Karten", failure: "Fehlschlag: setzt aus",
      doneMonth: "diesen Monat erledigt", star: "diese Monatswertung wurde schon eine Sternkarte gewertet",
      setAside: "beiseitegelegt", pickFamily: "Wähle deine Familie", taken: "vergeben",
      cardsFace: "Karte(n)", moved: "Geld diesen Zug bewegt", toHandN: "auf die Hand", toScreenN: "hinter den Schirm",
      steps: { 1: "Schritt 1: Scheibe", 2: "Schritt 2: Karten spielen", 3: "Schritt 3: Jobversuch", 4: "Schritt 4: nachziehen" },
      pend: {
        family: "wählt eine Familie", turn: "Zug", discard: "wirft auf {HAND_LIMIT} ab", discards: "wirft ab",
        magnifier: "Lupe: wirft auf {MAGNIFIER_LIMIT} ab", audit: "Steuerprüfung: wirft Geld auf {EV08_LIMIT} ab",
        guardian: "Schutzengel?", defend: "wehrt ab?", raid: "wählt ein Feld für die Razzia", hit: "wählt einen Charakter (Anschlag)",
        hand_over: "gibt einen Charakter ab", job_roll: "Job: würfeln oder aufgeben", reroll: "Gezinkte Würfel: neu würfeln?",
        family_ties: "Familienbande?", choose_event: "wählt ein Ereignis", a_draw: "{A_DRAW} Aktionskarten ziehen?",
        politik: "Politik: darf den Platz in der Zugreihenfolge wechseln", spitzel_column: "Spitzel: wählt eine Spalte",
        spitzel_take: "Spitzel: nimmt Karten zurück", chance_draw: "zieht", chance_roll: "Würfelwurf",
      },
      me: { 1: "ME1 Angriffsspalte", 2: "ME2 Jobspalte", 3: "ME3 Charakterspalten", 4: "ME4 Auffüllen", 5: "ME5 Macht-SP",
        6: "ME6 Monatsbonus", 7: "ME7 Einkommen", 8: "ME8 Jobwechsel", 9: "ME9 Aufräumen", 10: "ME10", 11: "ME11 Zugreihenfolge", 12: "ME12 neuer Monat" },
      monthEnd: "Monatsende", grossoffensive: "Großoffensive: bis zu {ORSINI_LIMIT} Karten", played: "gespielt",
      evfx: {
        EV01: "Bestechungsminimum −{EV01_BRIBE} (mind. 1)", EV02: "Polizeimarken-Angriffe +{EV02_FIST} Faust", EV03: "Keine Fadenkreuz-Karten in Angriffsfelder",
        EV04: "Keine offenen Angriffe", EV05: "Gewertete Sternkarte: doppelte Wirkung", EV06: "Job-Würfelsummen −{EV06_DICE}",
        EV07: "Geschenk-Charaktere +{EV07_GIFT} SP", EV08: "ME7: mehr als {EV08_LIMIT} Geldkarten → auf {EV08_LIMIT} abwerfen", EV09: "Zwei Scheiben am Aschenbecher belohnt",
        EV10: "Abwehrstärke −{EV10_DEFENCE}", EV11: "Karten pro Zug: höchstens {CURFEW_LIMIT} (Orsini {CURFEW_ORSINI})", EV12: "Jeder zieht 1 Geldkarte",
        EV13: "Monatsbonus verdoppelt", EV14: "Keine Handschlag-Karten in Angriffsfelder", EV15: "Erledigte Jobs: +{EV15_MONEY} Geldkarten",
        EV16: "Keine Scheiben setzen",
      },
      pfx: { POL: "ME11: darf den Platz in der Zugreihenfolge wechseln", STA: "schützt vor Polizeimarken-Angriffen", WIR: "+1 Geldkarte bei ME7",
        PRE: "schützt vor Stern-Angriffen", BEV: "gewinnt Gleichstände beim Monatsbonus" },
      deckNames: { A: "Aktion", M: "Geld", C: "Charakter", J: "Job", E: "Ereignis", X: "Auftrag" },
    },
  };

  // the labels as written ({NAME} = a constant of the table's data), filled by loadData
  const LBL_SRC = JSON.parse(JSON.stringify(LBL));
  function fillLabels(o) {
    if (typeof o === "string") return o.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (m, k) => (k in CONST ? String(CONST[k]) : "?"));
    if (Array.isArray(o)) return o.map(fillLabels);
    const out = {};
    for (const [k, x] of Object.entries(o)) out[k] = fillLabels(x);
    return out;
  }
  for (const lang of Object.keys(LBL_SRC)) LBL[lang] = fillLabels(LBL_SRC[lang]);  // until a table's data comes

  // ------------------------------------------------------------------ small helpers
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const r1 = (x) => Math.round(x * 10) / 10;
  const textOn = (hex) => BoardKit.ink(hex);
  const CW = 0.6; // average glyph width per font size (generous, so text never overflows)
  const CWB = 0.68; // the same for bold text
  const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  let measureCtx = null;
  // the width of a text in the board's font (canvas measure; an estimate where no canvas exists)
  function tw(text, fs, bold) {
    text = String(text);
    if (measureCtx === null) {
      try { measureCtx = document.createElement("canvas").getContext("2d") || false; } catch (e) { measureCtx = false; }
    }
    if (!measureCtx) return text.length * fs * (bold ? CWB : CW);
    measureCtx.font = `${bold ? 800 : 400} ${fs}px ${FONT}`;
    return measureCtx.measureText(text).width * 1.03;
  }
  function fit(text, maxW, fs, bold) {
    text = String(text);
    if (tw(text, fs, bold) <= maxW) return text;
    let n = text.length - 1;
    while (n > 0 && tw(text.slice(0, n).trimEnd() + "…", fs, bold) > maxW) n--;
    return n <= 0 ? "" : text.slice(0, n).trimEnd() + "…";
  }
  function fitFont(text, maxW, fs, minFs, bold) {
    let f = fs;
    while (f > minFs && tw(text, f, bold) > maxW) f -= 0.5;
    return f;
  }
  // the largest font (down to minFs) at which wrap2 needs no truncation
  function wrapFit(text, maxW, fs, minFs) {
    for (let f = fs; f >= minFs; f -= 0.5) {
      const lines = wrap2(text, maxW, f);
      if (!lines.some((l) => l.endsWith("…"))) return { lines, fs: f };
    }
    return { lines: wrap2(text, maxW, minFs), fs: minFs };
  }
  // wrap a (bold) name into at most two lines, breaking at spaces or at the marked syllables
  function wrap2(text, maxW, fs) {
    if (tw(text, fs, true) <= maxW) return [text];
    const words = String(text).split(" ");
    if (words.length === 2 && tw(words[0], fs, true) <= maxW && tw(words[1], fs, true) <= maxW) return words;
    const pieces = [];
    marked(text).split(" ").forEach((w, wi) => w.split("|").forEach((t, pi) => pieces.push({ t, sp: wi > 0 && pi === 0 })));
    const lines = [];
    let cur = "";
    for (const p of pieces) {
      const add = (p.sp ? " " : "") + p.t;
      if (!cur || tw(cur + add + "-", fs, true) <= maxW) { cur = cur ? cur + add : p.t; continue; }
      lines.push(cur + (p.sp ? "" : "-"));
      cur = p.t;
    }
    if (cur) lines.push(cur);
    if (lines.length > 2) lines.splice(1, lines.length - 1, lines.slice(1).join(" ").replace(/- /g, ""));
    return lines.map((l) => fit(l, maxW, fs, true));
  }
  const cardKind = (c) => (c in MONEY ? "money" : c in ACT ? ACT[c].k : c in CHR ? "char" : c in JOB ? "job" : c in EVENTS ? "event" : "?");
  function cardName(c) {
    if (c in ACT) return c + " " + ACT[c].n;
    if (c in MONEY) return "$" + MONEY[c];
    if (c in CHR) return c + " " + CHR[c].n;
    if (c in JOB) return c + " " + JOB[c].n;
    if (c in EVENTS) return c + " " + EVENTS[c];
    if (c in MISSIONS) return c + " " + MISSIONS[c];
    return c;
  }
  const expand = (counts) => (counts || []).reduce((a, [c, k]) => a.concat(Array(k).fill(c)), []);
  const total = (counts) => (counts || []).reduce((a, [, k]) => a + k, 0);
  const moneyList = (counts) => (counts || []).map(([c, k]) => `$${MONEY[c]}${k > 1 ? "×" + k : ""}`).join(" ") || "—";
  const moneySum = (counts) => (counts || []).reduce((a, [c, k]) => a + (MONEY[c] || 0) * k, 0);

  // ------------------------------------------------------------------ icons (one <defs> per board)
  const ICONS = {
    badge: '<path fill-rule="evenodd" d="M8 .8l6 2.2v4.6c0 3.6-2.6 6.3-6 7.6-3.4-1.3-6-4-6-7.6V3zM8 4.6l1 2.1 2.3.3-1.7 1.6.4 2.3L8 9.8l-2 1.1.4-2.3-1.7-1.6L7 6.7z"/>',
    cross: '<g fill="none" stroke="currentColor" stroke-width="1.7"><circle cx="8" cy="8" r="5"/><path d="M8 .8v4.4M8 10.8v4.4M.8 8h4.4M10.8 8h4.4"/></g>',
    hand: '<path d="M.6 7.2l3-3.2 2.2.9 2.4-1.3 2.3.4 4.9 3.6-1.3 1.5-1.2-.7.4 1.1-1.4 1-1.2-.9.2 1.2-1.4.8-1.1-.9-.1 1.2-1.3.5L3 10.6l-.9.3z"/>',
    star: '<path d="M8 .7l2.2 4.6 5 .6-3.7 3.5 1 5L8 12l-4.5 2.4 1-5L.8 5.9l5-.6z"/>',
    eye: '<path fill="none" stroke="currentColor" stroke-width="1.5" d="M.9 8C2.8 4.6 5.2 3 8 3s5.2 1.6 7.1 5c-1.9 3.4-4.3 5-7.1 5S2.8 11.4.9 8z"/><circle cx="8" cy="8" r="2.3"/>',
    fist: '<path d="M3.2 6.2a1.6 1.6 0 0 1 3.1-.6 1.6 1.6 0 0 1 3-.1 1.6 1.6 0 0 1 3 .5v5.1c0 2.5-2 4.1-4.4 4.1H7.4C5 15.2 3 13.4 3 11z"/><path d="M1.4 9.2c0-1 .8-1.7 1.8-1.7h3.4c.9 0 1.4.6 1.4 1.3S7.5 10 6.6 10H4.2" fill="none" stroke="currentColor" stroke-width="1.2"/>',
    die: '<rect x="1.6" y="1.6" width="12.8" height="12.8" rx="3" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="5.1" cy="5.1" r="1.35"/><circle cx="8" cy="8" r="1.35"/><circle cx="10.9" cy="10.9" r="1.35"/>',
    lupe: '<circle cx="6.5" cy="6.5" r="4.5" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M10 10l4.8 4.8" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
    gift: '<path d="M1.5 5.5h13v3h-13zM2.5 8.5h11v6.5h-11z"/><path d="M8 5.5v9.5" stroke="#fff" stroke-width="1.4"/><path d="M8 5.3C6.5 2 3.8 2.3 4.4 4.2 4.8 5.3 8 5.3 8 5.3zm0 0c1.5-3.3 4.2-3 3.6-1.1C11.2 5.3 8 5.3 8 5.3z" fill="none" stroke="currentColor" stroke-width="1.2"/>',
    cancel: '<circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M3.8 12.2l8.4-8.4" stroke="currentColor" stroke-width="1.8"/>',
    shield: '<path d="M8 .8l6 2.2v4.6c0 3.6-2.6 6.3-6 7.6-3.4-1.3-6-4-6-7.6V3z"/>',
    clamp: '<path d="M3 2h8.5a2.5 2.5 0 0 1 2.5 2.5v7a2.5 2.5 0 0 1-2.5 2.5H3v-3h8V5H3z"/><rect x="2" y="6.3" width="7" height="3.4" rx="1"/>',
    chip: '<circle cx="8" cy="8" r="7"/><circle cx="8" cy="8" r="4.2" fill="none" stroke="#fff" stroke-width="1.2" stroke-dasharray="2 1.6"/><circle cx="8" cy="8" r="6" fill="none" stroke="#fff" stroke-width="1.4" stroke-dasharray="1.5 2.2"/>',
    cards: '<rect x="1.5" y="3.5" width="8" height="11" rx="1.4" fill="none" stroke="currentColor" stroke-width="1.3" transform="rotate(-10 5.5 9)"/><rect x="6" y="2" width="8" height="11" rx="1.4"/>',
    screen: '<path d="M1 3l4.5 1.5v10L1 13zM5.5 4.5L10.5 3v10l-5 1.5zM10.5 3L15 4.5v10L10.5 13z"/>',
    disc: '<circle cx="8" cy="8" r="6.5"/><circle cx="8" cy="8" r="3.6" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="1"/>',
    play: '<path d="M4 2l10 6-10 6z"/>',
    ashtray: '<ellipse cx="8" cy="10" rx="7" ry="3.6"/><ellipse cx="8" cy="9.2" rx="4.6" ry="2" fill="#fff" fill-opacity=".35"/><path d="M9 8.6l5.5-5" stroke="currentColor" stroke-width="1.6"/><path d="M14.3 3.8l.9-.9" stroke="#e25822" stroke-width="1.8"/>',
    trophy: '<path d="M4 1.5h8v4a4 4 0 0 1-8 0zM6.8 9.2h2.4v2.6H6.8zM4.5 12.5h7v2h-7z"/><path d="M4 3H1.6v1.4A2.6 2.6 0 0 0 4.2 7M12 3h2.4v1.4A2.6 2.6 0 0 1 11.8 7" fill="none" stroke="currentColor" stroke-width="1.2"/>',
  };
  function defsSVG() {
    let s = '<svg class="ml-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>';
    for (const [k, body] of Object.entries(ICONS)) s += `<symbol id="ml-i-${k}" viewBox="0 0 16 16" fill="currentColor">${body}</symbol>`;
    s += '<pattern id="ml-backpat" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<rect width="8" height="8" fill="#6b1d1d"/><path d="M0 0v8" stroke="#8a2c2c" stroke-width="3"/></pattern>';
    s += '<pattern id="ml-hatch" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
      '<path d="M0 0v7" stroke="rgba(255,255,255,.12)" stroke-width="2"/></pattern>';
    s += '<radialGradient id="ml-felt" cx="50%" cy="35%" r="80%"><stop offset="0" stop-color="#2f5d45"/><stop offset="1" stop-color="#1b3a2b"/></radialGradient>';
    s += "</defs></svg>";
    return s;
  }
  const ico = (name, cls) => `<svg class="ml-ic${cls ? " " + cls : ""}" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><use href="#ml-i-${name}"/></svg>`;
  const sico = (name, x, y, size, color) => `<use href="#ml-i-${name}" x="${r1(x)}" y="${r1(y)}" width="${size}" height="${size}"${color ? ` color="${color}"` : ""}/>`;

  // ------------------------------------------------------------------ context
  // the view's public part, with the table as this seat sees it from its private part laid over
  // (view.py: MafiaView.public / .private / .deciding)
  function flatView(view) {
    const pub = (view && view.public) || {};
    const mine = view && view.private;
    const v = Object.assign({}, pub, { deciding: (view && view.deciding) || {} });
    v.to_act = v.deciding.to_act || [];
    v.secret_discards = pub.set_aside_counts;
    if (mine) {
      for (const k of ["hand_actions", "hand_money", "screen", "mission", "atk", "grid", "event_bottom", "event_choice"]) v[k] = mine[k];
      v.my_discards = (mine.set_aside || []).map(([c]) => [c, 1]);
      if (mine.last_move) v.last = [pub.last[0], mine.last_move];
    }
    return v;
  }
  function makeCtx(payload, kit, narrow) {
    const v = flatView(kit.view);
    const legal = kit.legal;
    const cx = {
      p: payload, v, kit, L: kit.words(LBL), lang: kit.lang, legal, narrow,
      viewer: kit.viewer, n: v.players || kit.seats.length, dec: v.deciding,
    };
    cx.order = (v.order && v.order.length ? v.order : [...Array(cx.n).keys()]);
    cx.lastKeys = lastTargets(v);
    cx.toAct = new Set(v.to_act || []);
    return cx;
  }
  const seat = (cx, i) => cx.kit.seat(i);
  const msg = (cx, id, params) => cx.kit.msg(id, params);
  // the legal moves (entries of kit.legal) whose action ({kind, ...}: MLAction.to_json) fits
  const sel = (cx, pred) => cx.legal.filter((m) => pred(m.action));
  // "what does this do?": a small "?" linking an entry of the rules page (/rules/mafia-legend#anchor,
  // rules.<lang>.md) in a new tab; always a sibling of a clickable card, never inside it
  function help(cx, anchor, label) { return cx.kit.rulesLinkHTML ? cx.kit.rulesLinkHTML(anchor, label) : ""; }
  function helpWrap(cx, html, anchor, label) {
    return cx.kit.rulesLinkHTML ? `<span class="bk-helpwrap ml-helpwrap">${html}${help(cx, anchor, label)}</span>` : html;
  }
  function svgHelp(cx, x, y, anchor, label) {
    if (!cx.kit.rulesHref) return "";
    return `<a class="bk-help-svg" href="${esc(cx.kit.rulesHref(anchor))}" target="_blank" rel="noopener" data-rules="${esc(anchor)}">` +
      `<title>${esc(label)}</title><circle cx="${r1(x)}" cy="${r1(y)}" r="6.5"/>` +
      `<text x="${r1(x)}" y="${r1(y + 3.5)}" text-anchor="middle">?</text></a>`;
  }
  // the rules section of the decision under way (a turn by its step)
  const STEP_HELP = { 1: "disc", 2: "play", 3: "job-attempt", 4: "draw-back" };
  const KIND_HELP = {
    family: "setup", discard: "draw-back", magnifier: "characters", audit: "card-EV08", guardian: "family-lombardo",
    defend: "attacks", raid: "attacks", hit: "attacks", hand_over: "attacks", job_roll: "jobs", reroll: "family-santori",
    family_ties: "family-barone", choose_event: "events", a_draw: "characters", politik: "card-POL",
    spitzel_column: "family-rinaldi", spitzel_take: "family-rinaldi",
  };

  // a clickable element's {c: extra classes, a: attributes} (kit.placeAttrs)
  function clk(cx, moves, label, pick) {
    const k = cx.kit.placeAttrs(moves || [], { label, pick });
    return { c: k.cls, a: k.attrs };
  }
  // a target (field, attack field, row card, job card): narrowed to the picked hand card when it fits
  function tclk(cx, moves, label) {
    const k = cx.kit.placeAttrs(moves || [], { label, narrow: true });
    return { c: k.cls, a: k.attrs };
  }
  const isLast = (cx, key) => cx.lastKeys.has(key);
  // animations (boardkit.js BoardKit.animate): a component's stable key as HTML attributes;
  // o.n + o.pool: a stack of identical cards or discs; o.from: where a new one comes from;
  // o.origin: a counter or deck, only a place things come from
  function an(key, o) {
    o = o || {};
    return ` ${o.origin ? "data-anim-origin" : "data-anim"}="${esc(key)}"` +
      (o.n !== undefined ? ` data-anim-n="${o.n}" data-anim-pool="${esc(o.pool)}"` : "") +
      (o.from ? ` data-anim-from="${esc(o.from)}"` : "");
  }
  const discPools = (cx) => Array.from({ length: cx.n }, (_, q) => "mldisc-" + q).join(" ");
  // a card played by the viewer comes from its hand (or screen); another seat's from its hand count
  function playedFrom(cx, q, c, src) {
    if (q !== cx.viewer || !c || c === "?") return { from: "mlhand-" + q };
    return { n: 1, pool: "mlc-" + c, from: `ml-${c}|${src === "S" ? "screen" : "hand"} mlhand-${q}` };
  }

  function lastTargets(v) {
    const out = new Set();
    const last = v.last || [-1, ""];
    const s = last[0];
    const t = String(last[1] || "").trim().split(/\s+/);
    const k = t[0];
    if (k === "play") {
      const where = t.find((x) => /^(job|k[1-4]|atk:\d)$/.test(x));
      if (where && where.startsWith("atk:")) out.add("atk:" + where.slice(4));
      else if (where) out.add(`f:${s}:${where}`);
    } else if (k === "disc") {
      out.add(t[1] === "protect" ? "atk:" + s : t[1] && t[1].startsWith("ashtray") ? "ashtray" : "plaque:" + s);
    } else if (k === "defend" || k === "no_defence" || k === "guardian") out.add("atk:" + s);
    else if (k === "hit" || k === "hand_over") out.add("char:" + t[1]);
    else if (k === "choose_event") out.add("event:" + t[1]);
    else if (k === "roll" || k === "reroll" || k === "no_reroll" || k === "job_roll") out.add("dice");
    else if (k === "job_attempt") { out.add("job"); out.add("f:" + s + ":job"); }
    else if (k === "start") out.add("plaque:" + t[1]);
    else if (k === "a_draw") out.add("deck:A");
    if (s >= 0) out.add("plaque:" + s);
    return out;
  }

  // ------------------------------------------------------------------ move selectors
  const JOBKINDS = ["job_attempt", "job_skip", "job_roll", "job_abandon"];
  const movesHandCard = (cx, c) => sel(cx, (a) => ["play", "discard", "set_aside", "defend"].includes(a.kind) && a.card === c && (a.kind === "defend" || a.source === "hand"));
  const movesHandMoney = (cx, g) => sel(cx, (a) => (["play", "set_aside", "discard"].includes(a.kind) && a.card === g && a.source === "hand") || (a.kind === "to_screen" && a.card === g));
  const movesScreenMoney = (cx, g) => sel(cx, (a) => (["play", "set_aside"].includes(a.kind) && a.card === g && a.source === "screen") || (a.kind === "to_hand" && a.card === g));
  function movesField(cx, q, f) {
    const me = q === cx.viewer;
    return sel(cx, (a) => (me && a.kind === "play" && a.field === f) || (me && a.kind === "spitzel_take" && a.field === f) ||
      (me && f === "job" && JOBKINDS.includes(a.kind)) ||
      (a.kind === "raid" && cx.dec.kind === "raid" && cx.dec.target === q && a.field === f));
  }
  function movesAtk(cx, q) {
    const me = q === cx.viewer;
    return sel(cx, (a) => (a.kind === "play" && a.field === "atk:" + q) || (a.kind === "spitzel_take" && a.field === "atk:" + q) ||
      (me && ((a.kind === "disc" && a.where === "protect") || a.kind === "defend" || a.kind === "no_defence" || a.kind === "guardian")));
  }
  const movesSlot = (cx, k) => sel(cx, (a) => (a.kind === "play" && a.field === "k" + k) || (a.kind === "spitzel_column" && a.column === "k" + k));
  const movesJob = (cx) => sel(cx, (a) => (a.kind === "play" && a.field === "job") || JOBKINDS.includes(a.kind) || (a.kind === "spitzel_column" && a.column === "job"));
  function movesPlaque(cx, q, pos) {
    const me = q === cx.viewer;
    return sel(cx, (a) => (a.kind === "politik" && a.position === pos + 1) || (me && (a.kind === "ability" || a.kind === "family_ties")));
  }
  function movesChar(cx, q, c) {
    return sel(cx, (a) => (a.kind === "hit" && a.card === c && cx.dec.kind === "hit" && cx.dec.target === q) || (a.kind === "hand_over" && a.card === c && q === cx.viewer));
  }

  // ------------------------------------------------------------------ titles (tooltips / aria)
  function cardTitle(cx, c) {
    const L = cx.L;
    if (c in MONEY) return `${L.kinds.money} $${MONEY[c]}`;
    if (c in ACT) {
      const a = ACT[c];
      const bits = [`${c} ${a.n} (${L.kinds[a.k]})`];
      if (a.k === "attack") {
        bits.push(L.sym[a.sym] + (a.st ? " ×" + a.st : ""), `${L.fist} ${a.fi}`);
        if (a.eye) bits.push(L.eye);
        if (a.dl) bits.push(`$ ${a.dl}`);
      } else if (a.k === "defence") {
        bits.push(`${L.covers} ${a.cov.map((s) => L.sym[s]).join(", ")}`, a.str < 0 ? L.cancel : `${L.strength} ${a.str}`);
      } else {
        if (a.tag) bits.push(a.tag);
        if (a.di) bits.push(`${L.diceSym} ${a.di}`);
        if (a.fi) bits.push(`${L.fist} ${a.fi}`);
        if (a.dl) bits.push(`$ ${a.dl}`);
      }
      return bits.join(" · ");
    }
    if (c in CHR) {
      const h = CHR[c];
      const p = POWERS.find((x) => x.id === h.c);
      const bits = [`${c} ${h.n}`, `${p ? p.n : h.c} ${h.inf}`,
        h.br == null ? L.notBribe : `${L.bribe} $${h.br}`, h.bl == null ? L.notBlackmail : `${L.blackmail} ${h.bl}`,
        `${L.paydaySigns} ${h.d}`];
      if (h.sym === "L") bits.push(L.symL);
      if (h.sym === "E") bits.push(L.symE);
      if (h.sym === "A") bits.push(L.symA);
      if (h.gift) bits.push(`${L.gift} +${h.gift} ${L.vp} (${h.set})`);
      if (h.four) bits.push(L.fourOnly);
      return bits.join(" · ");
    }
    if (c in JOB) {
      const j = JOB[c];
      return `${c} ${j.n} · ${L.dieSum} ≥ ${j.sum} · ${L.tagsInstead}: ${j.tags.join(" + ")} · +${j.ep} ${L.vp} · $${j.d} · ${L.failure} ${j.fail}`;
    }
    if (c in EVENTS) return `${c} ${EVENTS[c]}: ${L.evfx[c] || ""}`;
    return cardName(c);
  }

  // ------------------------------------------------------------------ SVG pieces
  function valueItems(c, L) {
    // [{icon, text, color}] in priority order
    if (c in MONEY) return [];
    const a = ACT[c];
    if (!a) return [];
    const out = [];
    if (a.k === "attack") {
      out.push({ icon: "fist", text: String(a.fi) });
      if (a.st) out.push({ icon: "star", text: a.st > 1 ? String(a.st) : "", color: "#b8860b" });
      if (a.dl) out.push({ text: "$" + a.dl, color: "#1e6b35" });
      if (a.eye) out.push({ icon: "eye" });
    } else if (a.k === "defence") {
      out.push(a.str < 0 ? { icon: "cancel", color: "#1f5fa8" } : { icon: "shield", text: String(a.str), color: "#1f5fa8" });
    } else {
      if (a.tag) out.push({ tag: TAG_ABBR[a.tag] });
      if (a.di) out.push({ icon: "die", text: String(a.di) });
      if (a.fi) out.push({ icon: "fist", text: String(a.fi) });
      if (a.dl) out.push({ text: "$" + a.dl, color: "#1e6b35" });
    }
    return out;
  }
  function itemW(it, fs) {
    if (it.tag) return fs * 1.25 + 6;
    return (it.icon ? fs + 1 : 0) + (it.text ? it.text.length * fs * 0.62 : 0) + 3;
  }
  function itemsSVG(items, xr, ymid, fs, colour) {
    // draws items right-aligned ending at xr; returns svg string
    let s = "";
    let x = xr;
    for (let i = items.length - 1; i >= 0; i--) {
      const it = items[i];
      const w = itemW(it, fs);
      x -= w;
      const col = it.color || colour;
      if (it.tag) {
        s += `<rect x="${r1(x)}" y="${r1(ymid - fs * 0.62)}" width="${r1(w - 3)}" height="${r1(fs * 1.24)}" rx="2" class="ml-tag ml-tag-${it.tag}"/>` +
          `<text x="${r1(x + (w - 3) / 2)}" y="${r1(ymid + fs * 0.36)}" font-size="${fs * 0.85}" text-anchor="middle" class="ml-tagt">${esc(it.tag)}</text>`;
        continue;
      }
      let xx = x;
      if (it.icon) { s += sico(it.icon, xx, ymid - fs / 2, fs, col); xx += fs + 1; }
      if (it.text) s += `<text x="${r1(xx)}" y="${r1(ymid + fs * 0.36)}" font-size="${fs}" font-weight="700" fill="${col}">${esc(it.text)}</text>`;
    }
    return s;
  }
  function fitItems(items, avail, fs) {
    const out = [];
    let w = 0;
    for (const it of items) { const iw = itemW(it, fs); if (w + iw > avail) break; out.push(it); w += iw; }
    return { items: out, w };
  }

  // a card as a horizontal strip (grid fields, attack field)
  function svgStrip(cx, x, y, w, h, c, o) {
    o = o || {};
    const L = cx.L;
    const fs = h >= 21 ? 11 : 10;
    const ym = y + h / 2;
    let cls = "ml-strip";
    if (o.last) cls += " last";
    if (o.ign) cls += " ml-ign";
    let s = "";
    let title;
    if (c === "?") {
      cls += " ml-backcard";
      const money = o.src === "S";
      title = `${L.faceDown} · ${money ? L.backScreen : L.backHand}`;
      s += `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${h}" rx="3" fill="url(#ml-backpat)" stroke="#d9c38a" stroke-width="1"/>`;
      const label = money ? "$?" : "?";
      s += `<text x="${r1(x + 7)}" y="${r1(ym + fs * 0.36)}" font-size="${fs}" font-weight="700" fill="#f3e3b5">${label}</text>`;
      const srcTxt = w > 90 ? (money ? L.screen : L.hand) : (money ? "S" : "H");
      s += `<text x="${r1(x + w - 5)}" y="${r1(ym + fs * 0.33)}" font-size="${fs - 1}" text-anchor="end" fill="#f3e3b5" opacity=".85">${esc(srcTxt)}</text>`;
    } else {
      const kind = cardKind(c);
      cls += " ml-k-" + kind;
      title = cardTitle(cx, c);
      if (o.own && !o.pub) title += " · " + L.onlyYou;
      if (o.ign) title += " · " + L.ignored;
      s += `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${h}" rx="3" class="ml-face"${o.own && !o.pub ? ' stroke-dasharray="3 2"' : ""}/>`;
      s += `<rect x="${r1(x)}" y="${r1(y)}" width="5" height="${h}" rx="2" class="ml-kbar"/>`;
      if (kind === "money") {
        s += `<text x="${r1(x + 9)}" y="${r1(ym + fs * 0.38)}" font-size="${fs + 1}" font-weight="800" class="ml-moneyt">$${MONEY[c]}</text>`;
        if (w > 70) s += `<text x="${r1(x + w - 5)}" y="${r1(ym + fs * 0.33)}" font-size="${fs - 1}" text-anchor="end" class="ml-sub">${esc(L.kinds.money)}</text>`;
      } else {
        const idW = 3 * fs * 0.66;
        const items = valueItems(c, L);
        const symW = ACT[c] && ACT[c].k === "attack" ? fs + 2 : 0;
        const room = w - 9 - idW - symW - 4;
        const f = fitItems(items, room, fs - 1);
        let xx = x + 8;
        if (symW) { s += sico(ACT[c].sym, xx, ym - fs / 2, fs, "#9b1c1c"); xx += symW; }
        s += `<text x="${r1(xx)}" y="${r1(ym + fs * 0.36)}" font-size="${fs}" font-weight="800" class="ml-idt">${esc(c)}</text>`;
        xx += idW + 3;
        const nameRoom = x + w - 8 - f.w - xx;
        if (nameRoom > fs * 3.2 && c in ACT) {
          s += `<text x="${r1(xx)}" y="${r1(ym + fs * 0.36)}" font-size="${fs - 1}" class="ml-namet">${esc(fit(ACT[c].n, nameRoom, fs - 1))}</text>`;
        }
        s += itemsSVG(f.items, x + w - 3, ym, fs - 1, "#3a2a1a");
      }
    }
    if (o.ign) s += `<line x1="${r1(x + 3)}" y1="${r1(ym)}" x2="${r1(x + w - 3)}" y2="${r1(ym)}" stroke="#b00" stroke-width="1.6"/>`;
    return `<g class="${cls}"${o.anim || ""}><title>${esc(title)}</title>${s}</g>`;
  }

  function seatDisc(cx, x, y, r, q, extra) {
    const s = seat(cx, q);
    return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${r}" fill="${esc(s.colour)}" stroke="#111" stroke-width="1.2"${extra || ""}/>` +
      `<text x="${r1(x)}" y="${r1(y + r * 0.42)}" font-size="${r1(r * 1.15)}" font-weight="800" text-anchor="middle" fill="${textOn(s.colour)}">${esc(s.letter)}</text>`;
  }
  function famCrest(cx, x, y, size, fam) {
    const f = FAM[fam];
    if (!f) return "";
    return `<use href="#ml-i-shield" x="${r1(x)}" y="${r1(y)}" width="${size}" height="${size}" color="${f.col}" stroke="#111" stroke-width=".8"/>` +
      `<text x="${r1(x + size / 2)}" y="${r1(y + size * 0.66)}" font-size="${r1(size * 0.55)}" font-weight="800" text-anchor="middle" fill="${textOn(f.col)}">${esc(f.n[0])}</text>`;
  }

  function svgPlaque(cx, x, y, w, h, q, pos) {
    const v = cx.v;
    const L = cx.L;
    const s = seat(cx, q);
    const compact = w < 140;
    const fam = v.family ? v.family[q] : "";
    const f = FAM[fam];
    const moves = movesPlaque(cx, q, pos);
    const label = `${pos + 1}. ${s.name}${f ? " · " + f.n : ""} · ${v.vp[q]} ${L.vp}`;
    const k = clk(cx, moves, label);
    let cls = "ml-plaque" + k.c;
    if (cx.toAct.has(q)) cls += " ml-active";
    if (q === cx.viewer) cls += " ml-me";
    if (isLast(cx, "plaque:" + q)) cls += " last";
    const winner = v.over && (v.winners || []).includes(q);
    if (winner) cls += " ml-winner";
    let g = `<rect class="ml-plaque-bg" x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="7" stroke="${esc(s.colour)}"/>`;
    const titleBits = [label];
    if (compact) {
      g += seatDisc(cx, x + 17, y + 19, 10, q);
      g += `<text x="${r1(x + 31)}" y="${r1(y + 17)}" font-size="9" class="ml-pos">${pos + 1}.</text>`;
      g += `<text x="${r1(x + 31)}" y="${r1(y + 28)}" font-size="10.5" font-weight="700" class="ml-pname">${esc(fit(s.name, w - 36, 10.5, true))}</text>`;
      if (f) {
        g += famCrest(cx, x + 8, y + 34, 13, fam);
        g += `<text x="${r1(x + 23)}" y="${r1(y + 44)}" font-size="9.5" class="ml-pfam">${esc(fit(f.n, w - 28, 9.5))}</text>`;
      }
      g += `<text x="${r1(x + 8)}" y="${r1(y + h - 10)}" font-size="11" font-weight="800" class="ml-pvp">${v.vp[q]}<tspan font-size="8.5" font-weight="400"> ${esc(L.vp)}</tspan></text>`;
      let bx = x + w - 8;
      if (cx.toAct.has(q)) { bx -= 11; g += sico("play", bx, y + h - 20, 10, "#ffd34d"); }
      if (v.sitout && v.sitout[q]) { bx -= 20; g += sico("clamp", bx, y + h - 20, 10, "#e0d2a8") + `<text x="${r1(bx + 11)}" y="${r1(y + h - 11)}" font-size="9" class="ml-pvp">${v.sitout[q]}</text>`; }
      if (pos === 0) g += sico("chip", x + w - 19, y + 7, 12, "#b3261e");
      if (winner) g += sico("trophy", x + w - 20, y + h - 34, 13, "#ffd34d");
    } else {
      g += `<text x="${r1(x + 12)}" y="${r1(y + 19)}" font-size="11" class="ml-pos">${pos + 1}.</text>`;
      g += seatDisc(cx, x + 38, y + 33, 15, q);
      g += `<text x="${r1(x + 60)}" y="${r1(y + 28)}" font-size="14" font-weight="700" class="ml-pname">${esc(fit(s.name, w - 90, 14, true))}</text>`;
      if (f) {
        g += famCrest(cx, x + 59, y + 35, 15, fam);
        g += `<text x="${r1(x + 77)}" y="${r1(y + 47)}" font-size="12" class="ml-pfam">${esc(fit(f.n, w - 82, 12))}</text>`;
      }
      const goal = v.goal || 50;
      const pct = Math.max(0, Math.min(1, (v.vp[q] || 0) / goal));
      g += `<rect x="${r1(x + 12)}" y="${r1(y + h - 24)}" width="${r1(w - 24)}" height="8" rx="4" class="ml-vpbar-bg"/>`;
      g += `<rect x="${r1(x + 12)}" y="${r1(y + h - 24)}" width="${r1((w - 24) * pct)}" height="8" rx="4" fill="${esc(s.colour)}"/>`;
      g += `<text x="${r1(x + 12)}" y="${r1(y + h - 29)}" font-size="11" font-weight="800" class="ml-pvp">${v.vp[q]}<tspan font-weight="400">/${goal} ${esc(L.vp)}</tspan></text>`;
      // hand / screen / discs, right-aligned above the VP bar
      const sy = y + h - 29;
      let sx = x + w - 12;
      const stat = (icon, n, col) => {
        const t = String(n);
        sx -= t.length * 6.6;
        let o = `<text x="${r1(sx)}" y="${r1(sy)}" font-size="11" class="ml-pvp">${t}</text>`;
        sx -= 13;
        o += sico(icon, sx, sy - 10, 11, col);
        sx -= 7;
        return o;
      };
      g += stat("disc", v.discs[q], s.colour) + stat("screen", v.screen_sizes[q], "#e0d2a8") + stat("cards", v.hand_sizes[q], "#e0d2a8");
      titleBits.push(`${L.hand} ${v.hand_sizes[q]} · ${L.screen} ${v.screen_sizes[q]} · ${L.discs} ${v.discs[q]}`);
      let bx = x + w - 10;
      if (winner) { bx -= 18; g += sico("trophy", bx, y + 8, 16, "#ffd34d"); }
      if (pos === 0) { bx -= 16; g += sico("chip", bx, y + 8, 15, "#b3261e"); titleBits.push(L.startPlayer); }
      if (cx.toAct.has(q)) { bx -= 15; g += sico("play", bx, y + 9, 13, "#ffd34d"); titleBits.push(L.toAct); }
      if (v.sitout && v.sitout[q]) {
        g += sico("clamp", x + w - 40, y + h - 44, 13, "#e0d2a8") + `<text x="${r1(x + w - 25)}" y="${r1(y + h - 33)}" font-size="11" class="ml-pvp">${v.sitout[q]}</text>`;
        titleBits.push(`${L.sitsOut} ${v.sitout[q]} ${L.phases}`);
      }
    }
    return `<g class="${cls}"${k.a}><title>${esc(titleBits.join(" · "))}</title>${g}</g>`;
  }

  function svgAtkField(cx, x, y, w, h, q) {
    const v = cx.v;
    const L = cx.L;
    const x0 = (v.atk || [])[q];
    const moves = movesAtk(cx, q);
    const s = seat(cx, q);
    const k = tclk(cx, moves, `${L.attack} → ${s.name}`);
    let cls = "ml-field ml-atk" + k.c;
    if (isLast(cx, "atk:" + q)) cls += " last";
    let g = `<rect class="ml-field-bg" x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="5"/>`;
    const pad = 6;
    const sw = w - 2 * pad;
    const sh = h >= 90 ? 22 : 20;
    let title = `${L.attack}: ${s.name}`;
    if (!x0) {
      g += sico("cross", x + w / 2 - 9, y + h / 2 - 9, 18, "rgba(255,255,255,.13)");
    } else if (x0[0] === "DISC") {
      const o = seat(cx, x0[1]);
      g += `<g${an("mldisc-atk-" + q, { n: 1, pool: "mldisc-" + x0[1], from: "mldiscs-" + x0[1] })}>` +
        `<circle cx="${r1(x + w / 2)}" cy="${r1(y + h / 2 - 6)}" r="15" fill="${esc(o.colour)}" stroke="#111" stroke-width="1.5"/>` +
        `<circle cx="${r1(x + w / 2)}" cy="${r1(y + h / 2 - 6)}" r="9" fill="none" stroke="${textOn(o.colour)}" stroke-opacity=".4"/>` +
        `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2 - 1)}" font-size="14" font-weight="800" text-anchor="middle" fill="${textOn(o.colour)}">${esc(o.letter)}</text></g>`;
      g += `<text x="${r1(x + w / 2)}" y="${r1(y + h - 10)}" font-size="${w > 90 ? 10 : 9}" text-anchor="middle" class="ml-sub-l">${esc(fit(w > 110 ? L.protectDisc : L.protectShort, w - 8, w > 90 ? 10 : 9))}</text>`;
      title += " · " + L.protectDisc;
    } else {
      const [card, attacker, up, timing, defence] = x0;
      const pub = !!x0[5];
      const own = attacker === cx.viewer;
      g += svgStrip(cx, x + pad, y + pad + 2, sw, sh, card, { pub: pub || up, own, last: false, anim: an("mlatk-" + q, playedFrom(cx, attacker, card, "H")) });
      const a = seat(cx, attacker);
      const ly = y + pad + sh + 15;
      g += `<text x="${r1(x + pad)}" y="${r1(ly)}" font-size="10" class="ml-sub-l">←</text>`;
      g += seatDisc(cx, x + pad + 17, ly - 3.5, 7, attacker);
      const tl = up ? (timing === "now" ? L.resolveNow : L.resolveME) : pub ? L.revealed : L.faceDown;
      g += `<text x="${r1(x + pad + 28)}" y="${r1(ly)}" font-size="${w > 90 ? 10 : 9}" class="ml-sub-l">${esc(fit((up || pub ? "▲ " : "▼ ") + tl, w - pad - 30, w > 90 ? 10 : 9))}</text>`;
      if (defence) g += svgStrip(cx, x + pad, ly + 6, sw, sh - 2, defence, { pub: true, anim: an("mldef-" + q, playedFrom(cx, q, defence, "H")) });
      title += ` · ${L.attacker}: ${a.name} · ${up ? L.faceUp : pub ? L.revealed : L.faceDown}${up ? " · " + tl : ""}${defence ? " · " + L.defence + ": " + cardName(defence) : ""}`;
    }
    return `<g class="${cls}"${k.a}><title>${esc(title)}</title>${g}</g>`;
  }

  function svgField(cx, x, y, w, h, q, fi) {
    const v = cx.v;
    const L = cx.L;
    const f = FIELDS[fi];
    const cards = ((v.grid || [])[q] || [])[fi] || [];
    const closed = fi === 0 ? !v.job : !(v.row || [])[fi - 1];
    const moves = movesField(cx, q, f);
    const s = seat(cx, q);
    const fl = fi === 0 ? L.job : f.toUpperCase();
    const k = tclk(cx, moves, `${fl} · ${s.name}`);
    let cls = "ml-field" + k.c;
    const lastField = isLast(cx, `f:${q}:${f}`);
    let g = `<rect class="ml-field-bg" x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="5"/>`;
    if (closed && !cards.length) g += `<rect x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="5" fill="url(#ml-hatch)"/>`;
    const pad = 5;
    const sh = Math.min(22, (h - 2 * pad - 4) / 3);
    cards.forEach((sl, i) => {
      const [card, src, ign, pub] = sl;
      g += svgStrip(cx, x + pad, y + pad + 1 + i * (sh + 2), w - 2 * pad, sh, card,
        { src, ign, pub, own: q === cx.viewer, last: lastField && i === cards.length - 1, anim: an(`mlf-${q}-${f}-${i}`, playedFrom(cx, q, card, src)) });
    });
    const title = `${fl} · ${s.name}${closed ? " · " + L.closed : ""}${cards.length ? " · " + cards.length + " " + L.cardsFace : ""}`;
    return `<g class="${cls}"${k.a}><title>${esc(title)}</title>${g}</g>`;
  }

  function svgCharCard(cx, x, y, w, h, c, slot) {
    const L = cx.L;
    const moves = movesSlot(cx, slot);
    if (!c) {
      const k = tclk(cx, moves, `K${slot}`);
      return `<g class="ml-rowcard ml-empty${k.c}"${k.a}><title>K${slot}: ${esc(L.emptySlot)}</title>` +
        `<rect x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="7" class="ml-slot-empty"/>` +
        `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2)}" font-size="13" text-anchor="middle" class="ml-sub-l">K${slot}</text>` +
        `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2 + 15)}" font-size="10" text-anchor="middle" class="ml-sub-l">${esc(L.closed)}</text></g>`;
    }
    const h0 = CHR[c] || { n: c, c: "PRE", inf: 0, br: null, bl: null, d: 0, sym: "", gift: 0, set: "" };
    const col = PCOL[h0.c] || "#555";
    const k = tclk(cx, moves, `K${slot}: ${cardName(c)}`);
    const x1 = x + 3, y1 = y + 3, w1 = w - 6, h1 = h - 6;
    const portrait = h1 > 110;
    let g = `<rect x="${r1(x1)}" y="${r1(y1)}" width="${r1(w1)}" height="${r1(h1)}" rx="7" class="ml-cardbg"/>`;
    const bh = portrait ? 24 : 19;
    g += `<path d="M${r1(x1)} ${r1(y1 + bh)}V${r1(y1 + 7)}a7 7 0 0 1 7 -7H${r1(x1 + w1 - 7)}a7 7 0 0 1 7 7V${r1(y1 + bh)}z" fill="${col}"/>`;
    let band = `K${slot} · ${c}`;
    const afs = portrait ? 10 : 9;
    let bfs = portrait ? 12 : 11;
    let abbrInBand = false;
    for (const b of [band, `K${slot}·${c}`]) {
      for (const f of portrait ? [12, 11, 10.5] : [11, 10.5]) {
        if (!abbrInBand && 6 + tw(b, f, true) + 5 + tw(h0.c, afs) + 3 <= w1 - bh) { bfs = f; band = b; abbrInBand = true; }
      }
    }
    g += `<text x="${r1(x1 + 6)}" y="${r1(y1 + bh * 0.7)}" font-size="${bfs}" font-weight="800" fill="#fff">${esc(band)}</text>`;
    if (abbrInBand) g += `<text x="${r1(x1 + w1 - bh - 4)}" y="${r1(y1 + bh * 0.7)}" font-size="${afs}" text-anchor="end" fill="#fff" opacity=".85">${esc(h0.c)}</text>`;
    // influence bubble
    g += `<circle cx="${r1(x1 + w1 - bh / 2 - 1)}" cy="${r1(y1 + bh / 2)}" r="${r1(bh / 2 - 2.5)}" fill="#fff"/>` +
      `<text x="${r1(x1 + w1 - bh / 2 - 1)}" y="${r1(y1 + bh / 2 + (bh / 2 - 2.5) * 0.45)}" font-size="${r1(bh * 0.5)}" font-weight="800" text-anchor="middle" fill="${col}">${h0.inf}</text>`;
    let yy = y1 + bh;
    // name
    const nfs = portrait ? 13 : 11.5;
    if (portrait) {
      const wf = wrapFit(h0.n, w1 - 10, nfs, 9.5);
      wf.lines.forEach((ln, i) => { g += `<text x="${r1(x1 + 6)}" y="${r1(yy + 16 + i * 15)}" font-size="${wf.fs}" font-weight="700" class="ml-cname">${esc(ln)}</text>`; });
      const lines = wf.lines;
      yy += 16 + 15 * Math.max(1, lines.length) - 5;
    } else {
      const f = fitFont(h0.n, w1 - 10, nfs, 8.5, true);
      g += `<text x="${r1(x1 + 5)}" y="${r1(yy + 14)}" font-size="${f}" font-weight="700" class="ml-cname">${esc(fit(h0.n, w1 - 10, f, true))}</text>`;
      yy += 14;
    }
    // bribe / blackmail
    const sfs = portrait ? 12 : 11;
    const ly = yy + (portrait ? 20 : 17);
    g += `<text x="${r1(x1 + 6)}" y="${r1(ly)}" font-size="${sfs}" font-weight="800" class="ml-bribe">$${h0.br == null ? "—" : h0.br}</text>`;
    const bx = x1 + 6 + (portrait ? 40 : 34);
    g += sico("fist", bx, ly - sfs * 0.85, sfs, "#7a1f1f") + `<text x="${r1(bx + sfs + 1)}" y="${r1(ly)}" font-size="${sfs}" font-weight="800" class="ml-bmail">${h0.bl == null ? "—" : h0.bl}</text>`;
    // payday dollars at the right of that line
    if (h0.d) g += `<text x="${r1(x1 + w1 - 5)}" y="${r1(ly)}" font-size="${sfs - 1}" text-anchor="end" class="ml-payd">${"$".repeat(h0.d)}</text>`;
    // symbol / gift line
    const gy = ly + (portrait ? 21 : 16);
    let gx = x1 + 6;
    const ifs = portrait ? 12 : 10.5;
    if (h0.sym === "L") { g += sico("lupe", gx, gy - ifs * 0.85, ifs, "#333"); gx += ifs + 4; }
    else if (h0.sym === "E" || h0.sym === "A") {
      g += `<circle cx="${r1(gx + ifs / 2)}" cy="${r1(gy - ifs * 0.35)}" r="${r1(ifs / 2 + 0.5)}" fill="${h0.sym === "E" ? "#6a3d9a" : "#9b1c1c"}"/>` +
        `<text x="${r1(gx + ifs / 2)}" y="${r1(gy)}" font-size="${r1(ifs * 0.8)}" font-weight="800" text-anchor="middle" fill="#fff">${h0.sym}</text>`;
      gx += ifs + 5;
    }
    if (h0.gift) {
      g += sico("gift", gx, gy - ifs * 0.85, ifs, "#b3261e");
      const room = x1 + w1 - (gx + ifs + 2) - 8 - (h0.four ? ifs * 1.6 + 4 : 0) - (abbrInBand ? 0 : ifs * 2.2 + 4);
      const gt = tw("+" + h0.gift + " " + h0.set, ifs - 0.5, true) <= room ? "+" + h0.gift + " " + h0.set : "+" + h0.gift;
      g += `<text x="${r1(gx + ifs + 2)}" y="${r1(gy)}" font-size="${ifs - 0.5}" class="ml-gift">${esc(gt)}</text>`;
    }
    let rx = x1 + w1 - 5;
    if (h0.four) {
      g += `<rect x="${r1(rx - ifs * 1.6)}" y="${r1(gy - ifs * 0.95)}" width="${r1(ifs * 1.6)}" height="${r1(ifs * 1.2)}" rx="3" fill="#5a4a3a"/>` +
        `<text x="${r1(rx - ifs * 0.8)}" y="${r1(gy - ifs * 0.05)}" font-size="${r1(ifs * 0.8)}" font-weight="800" text-anchor="middle" fill="#fff">4P</text>`;
      rx -= ifs * 1.6 + 4;
    }
    if (!abbrInBand) {
      // no room in the band: the colour's name goes to the last line (colour is never the only cue)
      g += `<rect x="${r1(rx - ifs * 2.2)}" y="${r1(gy - ifs * 0.95)}" width="${r1(ifs * 2.2)}" height="${r1(ifs * 1.2)}" rx="3" fill="${col}"/>` +
        `<text x="${r1(rx - ifs * 1.1)}" y="${r1(gy - ifs * 0.05)}" font-size="${r1(ifs * 0.78)}" font-weight="800" text-anchor="middle" fill="#fff">${esc(h0.c)}</text>`;
    }
    let cls = "ml-rowcard" + k.c;
    return `<g class="${cls}"${k.a}${an("mlchar-" + c)}><title>${esc(cardTitle(cx, c))}</title>${g}</g>` +
      svgHelp(cx, x1 + w1 - 10, y1 + h1 - 10, "card-" + c, cardName(c));
  }

  function svgJobCard(cx, x, y, w, h) {
    const v = cx.v;
    const L = cx.L;
    const moves = movesJob(cx);
    const j = JOB[v.job];
    const k = tclk(cx, moves, j ? `${L.job}: ${cardName(v.job)}` : L.job);
    let cls = "ml-rowcard ml-jobcard" + k.c;
    if (isLast(cx, "job")) cls += " last";
    if (!j) {
      return `<g class="${cls} ml-empty"${k.a}><title>${esc(L.noJob)}</title>` +
        `<rect x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="7" class="ml-slot-empty"/>` +
        `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2)}" font-size="12" text-anchor="middle" class="ml-sub-l">${esc(L.job)}</text>` +
        `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2 + 14)}" font-size="10" text-anchor="middle" class="ml-sub-l">${esc(L.closed)}</text></g>`;
    }
    const x1 = x + 3, y1 = y + 3, w1 = w - 6, h1 = h - 6;
    const portrait = h1 > 110;
    const bh = portrait ? 24 : 19;
    let g = `<rect x="${r1(x1)}" y="${r1(y1)}" width="${r1(w1)}" height="${r1(h1)}" rx="7" class="ml-cardbg ml-jobbg"/>`;
    g += `<path d="M${r1(x1)} ${r1(y1 + bh)}V${r1(y1 + 7)}a7 7 0 0 1 7 -7H${r1(x1 + w1 - 7)}a7 7 0 0 1 7 7V${r1(y1 + bh)}z" fill="#3b2a1e"/>`;
    const jband = `${L.job} · ${v.job}`;
    const jfs = portrait ? 12 : 11;
    const vpW = tw(`+${j.ep} ${L.vp}`, jfs, true);
    g += `<text x="${r1(x1 + 6)}" y="${r1(y1 + bh * 0.7)}" font-size="${jfs}" font-weight="800" fill="#f3e3b5">${esc(16 + tw(jband, jfs, true) + vpW <= w1 ? jband : v.job)}</text>`;
    g += `<text x="${r1(x1 + w1 - 6)}" y="${r1(y1 + bh * 0.7)}" font-size="${portrait ? 12 : 11}" font-weight="800" text-anchor="end" fill="#ffd34d">+${j.ep} ${esc(L.vp)}</text>`;
    let yy = y1 + bh;
    const nfs = portrait ? 12.5 : 11;
    if (portrait) {
      const wf = wrapFit(j.n, w1 - 10, nfs, 10);
      const lines = wf.lines;
      lines.forEach((ln, i) => { g += `<text x="${r1(x1 + 6)}" y="${r1(yy + 16 + i * 14)}" font-size="${wf.fs}" font-weight="700" class="ml-cname">${esc(ln)}</text>`; });
      yy += 16 + 14 * Math.max(1, lines.length) - 4;
    } else {
      const f = fitFont(j.n, w1 - 10, nfs, 8.5, true);
      g += `<text x="${r1(x1 + 5)}" y="${r1(yy + 14)}" font-size="${f}" font-weight="700" class="ml-cname">${esc(fit(j.n, w1 - 10, f, true))}</text>`;
      yy += 14;
    }
    const sfs = portrait ? 12 : 10.5;
    const ly = yy + (portrait ? 20 : 16);
    g += sico("die", x1 + 6, ly - sfs * 0.85, sfs, "#3a2a1a") + `<text x="${r1(x1 + 8 + sfs)}" y="${r1(ly)}" font-size="${sfs}" font-weight="800" class="ml-bmail">≥${j.sum}</text>`;
    g += `<text x="${r1(x1 + w1 - 6)}" y="${r1(ly)}" font-size="${sfs}" font-weight="800" text-anchor="end" class="ml-moneyt">$${j.d}</text>`;
    // tags
    const ty = ly + (portrait ? 20 : 15);
    let tx = x1 + 6;
    const tfs = portrait ? 11 : 9.5;
    for (const t of j.tags) {
      const a = TAG_ABBR[t];
      const tw = tfs * 1.5 + 4;
      g += `<rect x="${r1(tx)}" y="${r1(ty - tfs)}" width="${r1(tw)}" height="${r1(tfs * 1.3)}" rx="2" class="ml-tag ml-tag-${a}"/>` +
        `<text x="${r1(tx + tw / 2)}" y="${r1(ty)}" font-size="${tfs * 0.9}" text-anchor="middle" class="ml-tagt">${a}</text>`;
      tx += tw + 3;
    }
    g += sico("clamp", x1 + w1 - 6 - tfs - 10, ty - tfs * 0.9, tfs, "#7a1f1f") + `<text x="${r1(x1 + w1 - 6)}" y="${r1(ty)}" font-size="${tfs}" text-anchor="end" class="ml-bmail">${j.fail}</text>`;
    if (v.job_done_month) {
      const dfs = fitFont("✔ " + L.doneMonth, w1 - 8, portrait ? 10 : 9, 7);
      g += `<text x="${r1(x1 + w1 / 2)}" y="${r1(y1 + h1 - 5)}" font-size="${dfs}" text-anchor="middle" class="ml-done">✔ ${esc(L.doneMonth)}</text>`;
    }
    return `<g class="${cls}"${k.a}${an("mljob-" + v.job)}><title>${esc(cardTitle(cx, v.job))}${v.job_done_month ? " · " + esc(L.doneMonth) : ""}</title>${g}</g>` +
      svgHelp(cx, x1 + w1 - 10, y1 + h1 - 10, "card-" + v.job, cardName(v.job));
  }

  function svgPowers(cx, x, y, w, h) {
    const v = cx.v;
    const L = cx.L;
    const n = POWERS.length;
    const gap = 6;
    const cw = (w - gap * (n - 1)) / n;
    let g = "";
    POWERS.forEach((p, i) => {
      const px = x + i * (cw + gap);
      const holder = (v.powers || [])[i];
      const col = PCOL[p.id];
      const compact = cw < 120;
      const title = `${p.n} (${p.id}) · ≥${p.th} ${L.influence} · +${p.vp} ${L.vp}${v.variant === "advanced" ? " · " + L.pfx[p.id] : ""} · ${holder >= 0 ? L.heldBy + " " + seat(cx, holder).name : L.unheld}`;
      g += `<g class="ml-power${holder >= 0 ? " ml-held" : ""}"><title>${esc(title)}</title>`;
      g += `<rect x="${r1(px)}" y="${r1(y)}" width="${r1(cw)}" height="${h}" rx="6" fill="${col}" stroke="${holder >= 0 ? "#ffd34d" : "rgba(0,0,0,.4)"}" stroke-width="${holder >= 0 ? 2 : 1}"/>`;
      const nfs = compact ? fitFont(p.n, cw - 9, 10.5, 8, true) : 13;
      g += `<text x="${r1(px + 5)}" y="${r1(y + (compact ? 16 : 20))}" font-size="${nfs}" font-weight="800" fill="#fff">${esc(compact ? fit(p.n, cw - 8, nfs, true) : p.n)}</text>`;
      const lfs = compact ? fitFont(`≥${p.th} · +${p.vp} ${L.vp}`, cw - 27, 9.5, 8) : 11;
      g += `<text x="${r1(px + 5)}" y="${r1(y + h - (compact ? 8 : 10))}" font-size="${lfs}" fill="#fff" opacity=".9">≥${p.th} · +${p.vp} ${esc(L.vp)}</text>`;
      const hy = compact ? y + h - 12 : y + h / 2;
      if (holder >= 0) g += `<g${an("mlpow-" + p.id + "-" + holder)}>` + seatDisc(cx, px + cw - (compact ? 11 : 20), hy, compact ? 8.5 : 13, holder) + "</g>";
      else g += `<circle cx="${r1(px + cw - (compact ? 11 : 20))}" cy="${r1(hy)}" r="${compact ? 8 : 12}" fill="none" stroke="#fff" stroke-opacity=".5" stroke-dasharray="3 2"/>`;
      g += "</g>";
    });
    return g;
  }

  function svgCorner(cx, x, y, w, h) {
    // month / phase and the ashtray, above the turn-order column
    const v = cx.v;
    const L = cx.L;
    let g = "";
    const compact = w < 130;
    const mname = L.months[(v.month || 1) - 1] || "";
    g += `<text x="${r1(x + 8)}" y="${r1(y + (compact ? 16 : 22))}" font-size="${compact ? 12 : 15}" font-weight="800" class="ml-corner-t">${esc(mname)}</text>`;
    g += `<text x="${r1(x + 8)}" y="${r1(y + (compact ? 30 : 42))}" font-size="${compact ? 10 : 12}" class="ml-corner-s">${esc(L.month)} ${v.month}/${CONST.MONTHS || 12} · ${esc(L.phase)} ${v.phase}/${CONST.PHASES || 3}</text>`;
    const ashMoves = sel(cx, (a) => a.kind === "disc" && String(a.where).startsWith("ashtray"));
    const cap = (v.this_events || []).includes("EV09") ? 2 : 1;
    const k = clk(cx, ashMoves, `${L.ashtray} ${v.ashtray}/${cap}`);
    let cls = "ml-ashtray" + k.c;
    if (isLast(cx, "ashtray")) cls += " last";
    const ashRoom = w - (compact ? 32 : 40) - 8 - cap * (compact ? 14 : 18);
    const ashFs = fitFont(L.ashtray, ashRoom, compact ? 10 : 12, compact ? 8.5 : 10);
    const ay = y + (compact ? 38 : 56);
    const ah = compact ? h - 42 : 56;
    g += `<g class="${cls}"${k.a}><title>${esc(L.ashtray)}: ${v.ashtray}/${cap}</title>` +
      `<rect x="${r1(x + 5)}" y="${r1(ay)}" width="${r1(w - 10)}" height="${r1(ah)}" rx="6" class="ml-ash-bg"/>` +
      sico("ashtray", x + 10, ay + ah / 2 - (compact ? 9 : 12), compact ? 18 : 24, "#cfc6b3") +
      `<text x="${r1(x + (compact ? 32 : 40))}" y="${r1(ay + ah / 2 + 4)}" font-size="${ashFs}" class="ml-corner-s">${esc(fit(L.ashtray, ashRoom, ashFs))}</text>`;
    // discs on the ashtray (owners are not recorded: drawn neutral)
    for (let i = 0; i < cap; i++) {
      const dx = x + w - 14 - i * (compact ? 14 : 18);
      g += i < v.ashtray
        ? `<circle cx="${r1(dx)}" cy="${r1(ay + ah / 2)}" r="${compact ? 5.5 : 7}" fill="#d9c38a" stroke="#111"${an("mlash-" + i, { n: 1, pool: discPools(cx) })}/>`
        : `<circle cx="${r1(dx)}" cy="${r1(ay + ah / 2)}" r="${compact ? 5.5 : 7}" fill="none" stroke="#cfc6b3" stroke-dasharray="2 2"/>`;
    }
    g += "</g>";
    return g;
  }

  function svgColHead(cx, x, y, w, h, label, icon, moves) {
    const k = clk(cx, moves, label);
    const cls = "ml-colhead" + k.c;
    return `<g class="${cls}"${k.a}><title>${esc(label)}</title>` +
      `<rect x="${r1(x + 3)}" y="${r1(y + 3)}" width="${r1(w - 6)}" height="${r1(h - 6)}" rx="6" class="ml-colhead-bg"/>` +
      sico(icon, x + w / 2 - 11, y + h / 2 - 20, 22, "#e8d9b0") +
      `<text x="${r1(x + w / 2)}" y="${r1(y + h / 2 + 16)}" font-size="${w > 100 ? 13 : 10.5}" font-weight="700" text-anchor="middle" class="ml-corner-t">${esc(fit(label, w - 8, w > 100 ? 13 : 10.5))}</text></g>` +
      svgHelp(cx, x + w - 12, y + 13, "attacks", label);
  }

  function boardSVG(cx) {
    const v = cx.v;
    const L = cx.L;
    const order = cx.order;
    const n = order.length;
    const atkMoves = sel(cx, (a) => a.kind === "spitzel_column" && a.column === "atk");
    let s = "";
    let W, H;
    if (!cx.narrow) {
      // the drawing's width follows the space (800..1000 units), so text keeps a readable size
      W = cx.boardW || 1000;
      const pw = 150 + (W - 800) * 0.09, aw = 108 + (W - 800) * 0.06;
      const fw = (W - pw - aw) / 5;
      const cols = [0, pw, pw + aw];
      for (let i = 1; i <= 5; i++) cols.push(pw + aw + i * fw);
      const py = 8, ph = 50;
      const hy = py + ph + 8, hh = 136;
      const gy = hy + hh + 6, rh = 92;
      H = gy + n * rh + 8;
      s += `<rect x="0" y="0" width="${W}" height="${H}" rx="12" fill="url(#ml-felt)"/>`;
      s += svgPowers(cx, 8, py, W - 16, ph);
      s += svgCorner(cx, cols[0] + 4, hy, cols[1] - cols[0] - 4, hh);
      s += svgColHead(cx, cols[1], hy, cols[2] - cols[1], hh, L.attack, "cross", atkMoves);
      s += svgJobCard(cx, cols[2], hy, cols[3] - cols[2], hh);
      for (let k = 1; k <= 4; k++) s += svgCharCard(cx, cols[2 + k], hy, cols[3 + k] - cols[2 + k], hh, (v.row || [])[k - 1], k);
      order.forEach((q, pos) => {
        const y = gy + pos * rh;
        s += `<rect x="4" y="${r1(y + 1)}" width="${W - 8}" height="${rh - 2}" rx="8" class="ml-rowbg${q === cx.viewer ? " ml-rowme" : ""}${cx.toAct.has(q) ? " ml-rowact" : ""}"/>`;
        s += svgPlaque(cx, cols[0] + 4, y, cols[1] - cols[0] - 4, rh, q, pos);
        s += svgAtkField(cx, cols[1], y, cols[2] - cols[1], rh, q);
        for (let fi = 0; fi < 5; fi++) s += svgField(cx, cols[2 + fi], y, cols[3 + fi] - cols[2 + fi], rh, q, fi);
      });
    } else {
      // transposed for phones: one column per seat, one row per field; row cards at the left
      W = 420;
      const lw = 130;
      const cw = (W - lw - 4) / n;
      const py = 6, ph = 44;
      const hy = py + ph + 6, hh = 74;
      const ah = 90, rh = 100;
      const rowsY = [hy + hh];
      rowsY.push(rowsY[0] + ah);
      for (let i = 0; i < 5; i++) rowsY.push(rowsY[rowsY.length - 1] + rh);
      H = rowsY[6] + 6;
      s += `<rect x="0" y="0" width="${W}" height="${H}" rx="10" fill="url(#ml-felt)"/>`;
      s += svgPowers(cx, 5, py, W - 10, ph);
      s += svgCorner(cx, 2, hy, lw - 2, hh);
      order.forEach((q, pos) => {
        const x = lw + pos * cw;
        s += `<rect x="${r1(x + 1)}" y="${r1(hy)}" width="${r1(cw - 2)}" height="${r1(H - hy - 4)}" rx="7" class="ml-rowbg${q === cx.viewer ? " ml-rowme" : ""}${cx.toAct.has(q) ? " ml-rowact" : ""}"/>`;
        s += svgPlaque(cx, x, hy, cw, hh, q, pos);
        s += svgAtkField(cx, x, rowsY[0], cw, ah, q);
        for (let fi = 0; fi < 5; fi++) s += svgField(cx, x, rowsY[1 + fi], cw, rh, q, fi);
      });
      s += svgColHead(cx, 0, rowsY[0], lw, ah, L.attack, "cross", atkMoves);
      s += svgJobCard(cx, 0, rowsY[1], lw, rh);
      for (let k = 1; k <= 4; k++) s += svgCharCard(cx, 0, rowsY[1 + k], lw, rh, (v.row || [])[k - 1], k);
    }
    return `<svg class="ml-svg" data-anim-frame="board" viewBox="0 0 ${W} ${r1(H)}" width="100%" role="group" aria-label="${esc(L.order)}" xmlns="http://www.w3.org/2000/svg">${s}</svg>`;
  }

  // ------------------------------------------------------------------ HTML pieces
  const seatChip = (cx, q, withName) => cx.kit.chipHTML(q, { name: !!withName });
  function famChip(fam) {
    const f = FAM[fam];
    if (!f) return "";
    return `<span class="ml-fam" style="--fc:${f.col};--ft:${textOn(f.col)}"><i>${esc(f.n[0])}</i>${esc(f.n)}</span>`;
  }
  function valsHTML(c, L) {
    return valueItems(c, L).map((it) => {
      if (it.tag) return `<span class="ml-tagh ml-tag-${it.tag}">${it.tag}</span>`;
      return `<span class="ml-val"${it.color ? ` style="color:${it.color}"` : ""}>${it.icon ? ico(it.icon) : ""}${esc(it.text || "")}</span>`;
    }).join("");
  }
  function cardHTML(cx, c, count, moves, extraCls, label, selKey) {
    const L = cx.L;
    const kind = cardKind(c);
    // a hand card with card plays is picked first (the targets then narrow to its moves)
    const k = clk(cx, moves, label || cardName(c), selKey && moves.some((m) => m.action.kind === "play") ? selKey : undefined);
    let inner;
    if (kind === "money") {
      inner = `<div class="ml-c-top"><span>${esc(L.kinds.money)}</span></div><div class="ml-c-money">$${MONEY[c]}</div>`;
    } else if (c in ACT) {
      const a = ACT[c];
      let sym = "";
      if (a.k === "attack") sym = `<span class="ml-c-sym" title="${esc(L.sym[a.sym])}">${ico(a.sym)}</span>`;
      if (a.k === "defence") sym = `<span class="ml-c-cov" title="${esc(L.covers)}">${a.cov.map((s0) => ico(s0)).join("")}</span>`;
      inner = `<div class="ml-c-top"><b>${esc(c)}</b><span>${esc(L.kinds[a.k])}</span></div>` +
        `<div class="ml-c-name${a.n.length > 11 ? " ml-long" : ""}" lang="de">${esc(shy(a.n))}</div><div class="ml-c-vals">${sym}${valsHTML(c, L)}</div>`;
    } else {
      inner = `<div class="ml-c-name">${esc(cardName(c))}</div>`;
    }
    const cnt = count > 1 ? `<span class="ml-count">×${count}</span>` : "";
    const lastCls = extraCls || "";
    const keyAttrs = selKey ? an("ml-" + selKey, { n: count, pool: "mlc-" + c, from: kind === "money" ? "mldeck-M" : "mldeck-A" }) : "";
    return `<div class="ml-card ml-k-${kind}${k.c}${lastCls ? " " + lastCls : ""}"${k.a}${keyAttrs} title="${esc(cardTitle(cx, c))}">${inner}${cnt}</div>`;
  }
  function charChip(cx, c, q) {
    const h = CHR[c] || { n: c, c: "PRE", inf: 0 };
    const moves = q == null ? [] : movesChar(cx, q, c);
    const k = clk(cx, moves, cardName(c));
    return `<span class="ml-char${k.c}${isLast(cx, "char:" + c) ? " last" : ""}" style="--pc:${PCOL[h.c] || "#555"}"${k.a}${an("mlchar-" + c)} title="${esc(cardTitle(cx, c))}">` +
      `<b>${esc(c)}</b> ${esc(h.n)} <i>${h.inf}</i></span>`;
  }

  function statusHTML(cx) {
    const v = cx.v;
    const L = cx.L;
    let months = "";
    const nMonths = CONST.MONTHS || 12, nPhases = CONST.PHASES || 3, paydays = CONST.PAYDAY_MONTHS || [];
    for (let m = 1; m <= nMonths; m++) {
      const cls = m < v.month ? " ml-past" : m === v.month ? " ml-now" : "";
      const pay = paydays.includes(m);
      months += `<span class="ml-m${cls}" title="${esc(L.months[m - 1])}${pay ? " · " + esc(L.payday) : ""}">${esc(L.mon[m - 1])}${pay ? "<sup>$</sup>" : ""}</span>`;
    }
    let phases = "";
    for (let p = 1; p <= nPhases; p++) phases += `<span class="ml-ph${p < v.phase ? " ml-past" : p === v.phase ? " ml-now" : ""}">${p}</span>`;
    const variant = `${v.variant === "advanced" ? L.advanced : L.beginner}${v.missions ? " · " + L.missions : ""}`;
    return `<div class="ml-status"><div class="ml-months" role="img" aria-label="${esc(L.month)} ${v.month}/${nMonths}">${months}</div>` +
      `<div class="ml-phases" role="img" aria-label="${esc(L.phase)} ${v.phase}/${nPhases}"><span class="ml-lbl">${esc(L.phase)}</span>${phases}</div>` +
      `<div class="ml-goal">${ico("trophy")} ${esc(L.goal)} <b>${v.goal}</b> ${esc(L.vp)} <span class="ml-muted">· ${esc(variant)}</span></div></div>`;
  }

  function turnHTML(cx) {
    const v = cx.v;
    const L = cx.L;
    const dec = cx.dec;
    const kind = dec.kind;
    const bits = [];
    if (v.over) return "";
    let what = "";
    if (kind === "turn") {
      what = L.steps[v.step] || "";
      if (v.step === 2) what += ` (${v.played}/${v.limit} ${L.played})`;
      if (v.grossoffensive) what += " · " + L.grossoffensive;
    } else if (kind === "discards") what = L.pend[dec.reason] || L.pend.discards;
    else if (kind === "chance_draw") what = `${L.pend.chance_draw} (${L.deckNames[dec.deck] || dec.deck})`;
    else if (kind) what = L.pend[kind] || kind;
    const helpAt = kind === "turn" ? STEP_HELP[v.step] : KIND_HELP[kind] || (dec.month_end_step ? "month-end" : null);
    if (what && helpAt) what = { text: what, help: help(cx, helpAt, what) };
    const whatHTML = (w) => (typeof w === "string" ? esc(w) : esc(w.text) + " " + w.help);
    const actors = [...cx.toAct];
    if (actors.length) bits.push(actors.map((q) => seatChip(cx, q, true)).join(" ") + (what ? ` <span class="ml-sep">—</span> <span class="ml-what">${whatHTML(what)}</span>` : ""));
    else if (what) bits.push(`<span class="ml-what">${whatHTML(what)}</span>`);
    // month-end stage
    const cur = dec.month_end_step;
    if (cur) {
      bits.push(`<span class="ml-me-stage">${esc(L.monthEnd)}: ${esc(L.me[cur] || "ME" + cur)}</span>`);
    }
    if (v.money_moved && (v.money_moved[0] || v.money_moved[1])) {
      bits.push(`<span class="ml-muted">${esc(L.moved)}: ${v.money_moved[0]} ${esc(L.toHandN)}, ${v.money_moved[1]} ${esc(L.toScreenN)}</span>`);
    }
    if (!bits.length) return "";
    return `<div class="ml-turn">${bits.map((b, i) => `<span class="ml-tb">${i ? "" : ico("play", "ml-turn-ic")}${b}</span>`).join("")}</div>`;
  }

  // what just happened: the log's lines of the newest entry, as this viewer was told them
  function lastHTML(cx) {
    const lines = cx.kit.lastLines();
    if (!lines.length) return "";
    const s = (cx.v.last || [-1])[0];
    return `<div class="ml-last"><span class="ml-lbl">${esc(cx.L.last)}:</span> ${s >= 0 ? seatChip(cx, s) + " " : ""}<span>${esc(lines[0].text)}</span></div>`;
  }

  function overHTML(cx) {
    const v = cx.v;
    const L = cx.L;
    if (!v.over) return "";
    const w = v.winners || (cx.p.result && cx.p.result.winners) || [];
    const head = w.length ? `${ico("trophy")} ${esc(L.winners)}: ${w.map((q) => seatChip(cx, q, true)).join(", ")}` : esc(L.noWinner);
    return `<div class="ml-over">${head}</div>`;
  }

  function familyPickHTML(cx) {
    if (cx.dec.kind !== "family") return "";
    const v = cx.v;
    const L = cx.L;
    const tiles = FAMILY_IDS.map((f) => {
      const owner = (v.family || []).indexOf(f);
      const moves = sel(cx, (a) => a.kind === "family" && a.family === f);
      const fam = FAM[f];
      const k = clk(cx, moves, fam.n);
      return helpWrap(cx, `<div class="ml-famtile${k.c}${owner >= 0 ? " ml-taken" : ""}"${k.a} style="--fc:${fam.col};--ft:${textOn(fam.col)}">` +
        `<span class="ml-crest">${esc(fam.n[0])}</span><b>${esc(fam.n)}</b><span class="ml-muted">${esc(fam.ab)}</span>` +
        (owner >= 0 ? `<span>${seatChip(cx, owner)} ${esc(L.taken)}</span>` : "") + "</div>", "family-" + f, fam.n);
    }).join("");
    return `<section class="ml-panel"><h3>${esc(L.pickFamily)}</h3><div class="ml-famtiles">${tiles}</div></section>`;
  }

  function handHTML(cx) {
    const v = cx.v;
    const L = cx.L;
    if (cx.viewer == null || v.hand_actions == null) {
      return `<section class="ml-panel ml-hand"><h3>${esc(L.spectator)}</h3></section>`;
    }
    const acts = (v.hand_actions || []).map(([c, k]) => helpWrap(cx, cardHTML(cx, c, k, movesHandCard(cx, c), "", `${L.hand}: ${cardName(c)}`, c + "|hand"), "card-" + c, cardName(c))).join("");
    const hm = (v.hand_money || []).map(([c, k]) => cardHTML(cx, c, k, movesHandMoney(cx, c), "", `${L.hand}: $${MONEY[c]}`, c + "|hand")).join("");
    const sc = (v.screen || []).map(([c, k]) => cardHTML(cx, c, k, movesScreenMoney(cx, c), "", `${L.screen}: $${MONEY[c]}`, c + "|screen")).join("");
    let extra = "";
    if (v.mission) extra += `<div class="ml-mission">${esc(L.mission)}: <b>${esc(cardName(v.mission))}</b> ${help(cx, "card-" + v.mission, cardName(v.mission))}</div>`;
    if (v.my_discards && v.my_discards.length) {
      extra += `<div class="ml-aside">${esc(L.setAside)}: ${expand(v.my_discards).map((c) => esc(cardName(c))).join(", ")}</div>`;
    }
    const me = cx.viewer;
    return `<section class="ml-panel ml-hand" data-anim-frame="hand" aria-label="${esc(L.yourHand)}">` +
      `<h3>${seatChip(cx, me)} ${esc(L.yourHand)} <span class="ml-muted">(${total(v.hand_actions)})</span></h3>` +
      `<div class="ml-cards">${acts || '<span class="ml-muted">—</span>'}</div>` +
      `<div class="ml-money-row"><div><h4>${ico("cards")} ${esc(L.moneyHand)} <span class="ml-muted">$${moneySum(v.hand_money)}</span> ${help(cx, "money-move", L.moneyHand)}</h4><div class="ml-cards ml-small">${hm || '<span class="ml-muted">—</span>'}</div></div>` +
      `<div><h4>${ico("screen")} ${esc(L.behindScreen)} <span class="ml-muted">$${moneySum(v.screen)}</span></h4><div class="ml-cards ml-small">${sc || '<span class="ml-muted">—</span>'}</div></div></div>` +
      extra + "</section>";
  }

  function seatsHTML(cx) {
    const v = cx.v;
    const L = cx.L;
    const out = cx.order.map((q, pos) => {
      const s = seat(cx, q);
      const fam = (v.family || [])[q];
      const goal = v.goal || 50;
      const pct = Math.max(0, Math.min(100, Math.round(((v.vp || [])[q] || 0) * 100 / goal)));
      const discMoves = q === cx.viewer ? sel(cx, (a) => a.kind === "disc") : [];
      const dk = clk(cx, discMoves, `${L.discs}: ${v.discs[q]}`);
      let discs = "";
      for (let i = 0; i < (v.discs || [])[q]; i++) discs += `<span class="ml-disc" style="--sc:${esc(s.colour)}"></span>`;
      const chars = ((v.chars || [])[q] || []).map((c) => charChip(cx, c, q)).join("");
      const infl = {};
      for (const c of (v.chars || [])[q] || []) { const h = CHR[c]; if (h) infl[h.c] = (infl[h.c] || 0) + h.inf; }
      const inflHTML = POWERS.filter((p) => infl[p.id]).map((p) => `<span class="ml-infl" style="--pc:${PCOL[p.id]}" title="${esc(p.n)}">${p.id} ${infl[p.id]}</span>`).join("");
      const powers = POWERS.filter((p, i) => (v.powers || [])[i] === q).map((p) => `<span class="ml-pw" style="--pc:${PCOL[p.id]}">${esc(p.n)}</span>`).join("");
      // (a job done this month is still the row's job card: its chip takes the key when it leaves the row)
      const jobs = ((v.jobs_done || [])[q] || []).map((j) => `<span class="ml-jobchip"${j === v.job ? "" : an("mljob-" + j)} title="${esc(cardTitle(cx, j))}">${esc(j)} ${esc(JOB[j] ? JOB[j].n : "")}</span>`).join("");
      const sets = ((v.sets || [])[q] || []).map((x) => `<span class="ml-setchip">${ico("gift")} ${esc(x)}</span>`).join("");
      const stats = [];
      stats.push(`<span class="ml-stat"${an("mlhand-" + q, { origin: true, n: v.hand_sizes[q], pool: "mlcards-" + q })} title="${esc(L.hand)}">${ico("cards")} ${v.hand_sizes[q]}</span>`);
      stats.push(`<span class="ml-stat"${an("mlscreen-" + q, { origin: true, n: v.screen_sizes[q], pool: "mlcards-" + q })} title="${esc(L.screen)}">${ico("screen")} ${v.screen_sizes[q]}</span>`);
      stats.push(`<span class="ml-stat ml-discs${dk.c}"${dk.a}${an("mldiscs-" + q, { origin: true, n: v.discs[q], pool: "mldisc-" + q })} title="${esc(L.discs)}">${discs || "0"}<span class="ml-sr">${esc(L.discs)} ${v.discs[q]}</span></span>`);
      if (v.sitout && v.sitout[q]) stats.push(`<span class="ml-stat ml-warn">${ico("clamp")} ${esc(L.sitsOut)} ${v.sitout[q]}</span>`);
      if (v.acquired && v.acquired[q]) stats.push(`<span class="ml-stat">+${v.acquired[q]} ${esc(L.acquired)}</span>`);
      if (v.secret_discards && v.secret_discards[q]) stats.push(`<span class="ml-stat ml-warn">${v.secret_discards[q]} ${esc(L.setAside)}</span>`);
      if (v.variant === "advanced" && FAM[fam]) {
        const used = v.ability_used && v.ability_used[q];
        const abMoves = q === cx.viewer ? sel(cx, (a) => a.kind === "ability" || a.kind === "family_ties") : [];
        const ak = clk(cx, abMoves, FAM[fam].ab);
        stats.push(`<span class="ml-ability${used ? " ml-used" : ""}${ak.c}"${ak.a} title="${esc(L.ability)}: ${esc(used ? L.abilityUsed : L.abilityReady)}">${esc(FAM[fam].ab)}${used ? " ✓" : ""}</span>`);
      }
      if (v.missions) {
        const pm = v.public_missions && v.public_missions[q];
        if (pm) stats.push(`<span class="ml-stat">${esc(L.missionOf)}: ${esc(cardName(pm))}</span>`);
        else if (v.mission_dealt && v.mission_dealt[q]) stats.push(`<span class="ml-stat ml-muted">${esc(L.missionHidden)}</span>`);
      }
      let pm = "";
      const pmo = v.public_money && v.public_money[q];
      if (pmo) pm = `<div class="ml-row"><span class="ml-lbl">${esc(L.publicMoney)}:</span> $${moneySum(pmo[0])} / $${moneySum(pmo[1])} <span class="ml-muted">(${moneyList(pmo[0])} / ${moneyList(pmo[1])})</span></div>`;
      const win = v.over && (v.winners || []).includes(q);
      let cls = "ml-seatpanel";
      if (cx.toAct.has(q)) cls += " ml-active";
      if (q === cx.viewer) cls += " ml-me";
      if (win) cls += " ml-win";
      return `<div class="${cls}" style="--sc:${esc(s.colour)}" data-anim-frame="seat-${q}">` +
        `<div class="ml-sp-head"><span class="ml-pos">${pos + 1}.</span>${seatChip(cx, q, true)}${q === cx.viewer ? ` <span class="ml-muted">(${esc(L.you)})</span>` : ""} ${famChip(fam)}${FAM[fam] ? help(cx, "family-" + fam, FAM[fam].n) : ""}` +
        `${cx.toAct.has(q) ? ` <span class="ml-toact">${ico("play")} ${esc(L.toAct)}</span>` : ""}${win ? ` <span class="ml-toact">${ico("trophy")}</span>` : ""}</div>` +
        `<div class="ml-vp"><div class="ml-vpbar"><i style="width:${pct}%"></i></div><b>${v.vp[q]}</b><span class="ml-muted">/${goal} ${esc(L.vp)}</span></div>` +
        `<div class="ml-row ml-stats">${stats.join("")}</div>` +
        (powers ? `<div class="ml-row">${powers}</div>` : "") +
        `<div class="ml-row"><span class="ml-lbl">${esc(L.characters)} (${((v.chars || [])[q] || []).length}):</span> ${chars || '<span class="ml-muted">—</span>'}</div>` +
        (inflHTML ? `<div class="ml-row"><span class="ml-lbl">${esc(L.influence)}:</span> ${inflHTML}</div>` : "") +
        `<div class="ml-row"><span class="ml-lbl">${esc(L.jobsDone)}:</span> ${jobs || '<span class="ml-muted">—</span>'}${sets ? " " + sets : ""}</div>` +
        pm + "</div>";
    }).join("");
    return `<section class="ml-panel ml-seats">${out}</section>`;
  }

  function eventCard(cx, e, moves, extra) {
    const html = eventCardHTML(cx, e, moves, extra);
    return e && e !== "?" ? helpWrap(cx, html, "card-" + e, cardName(e)) : html;
  }
  function eventCardHTML(cx, e, moves, extra) {
    const L = cx.L;
    const known = e && e !== "?";
    const k = clk(cx, moves || [], known ? cardName(e) : "?");
    return `<div class="ml-event${known ? "" : " ml-unknown"}${k.c}${known && isLast(cx, "event:" + e) ? " last" : ""}${extra ? " " + extra : ""}"${k.a}${known ? an("mlev-" + e) : ""}>` +
      (known ? `<b>${esc(e)} ${esc(EVENTS[e] || "")}</b><span>${esc(L.evfx[e] || "")}</span>` : "<b>?</b>") + "</div>";
  }

  function tableHTML(cx, part) {
    const v = cx.v;
    const L = cx.L;
    const parts = [];
    // events (advanced game)
    if (part === "A" && v.variant === "advanced") {
      let ev = `<div class="ml-evcol"><h4>${esc(L.thisMonth)}</h4>${(v.this_events || []).map((e) => eventCard(cx, e)).join("") || '<span class="ml-muted">—</span>'}</div>` +
        `<div class="ml-evcol"><h4>${esc(L.nextMonth)}</h4>${(v.next_events || []).map((e) => eventCard(cx, e)).join("") || '<span class="ml-muted">—</span>'}</div>`;
      if ((v.event_choice || []).length) {
        ev += `<div class="ml-evcol ml-choose"><h4>${esc(L.chooseEvent)}</h4>${v.event_choice.map((e) => eventCard(cx, e, sel(cx, (a) => a.kind === "choose_event" && a.card === e))).join("")}</div>`;
      }
      let foot = "";
      if ((v.events_out || []).length) foot += `<div class="ml-row ml-small"><span class="ml-lbl">${esc(L.eventsOut)}:</span> ${v.events_out.map((e) => `<span class="ml-chip"${an("mlev-" + e)} title="${esc(cardTitle(cx, e))}">${esc(e)} ${esc(EVENTS[e] || "")}</span>`).join("")}</div>`;
      if ((v.event_bottom || []).length) foot += `<div class="ml-row ml-small"><span class="ml-lbl">${esc(L.eventBottom)}:</span> ${v.event_bottom.map((e) => `<span class="ml-chip">${esc(e === "?" ? "?" : cardName(e))}</span>`).join("")}</div>`;
      parts.push(`<section class="ml-panel ml-events"><h3>${esc(L.events)}</h3><div class="ml-evrow">${ev}</div>${foot}</section>`);
    }
    // dice
    if (part === "A" && (v.dice || []).length) {
      const rerolls = (i) => sel(cx, (a) => a.kind === "reroll" && a.dice.includes(i));
      const dice = v.dice.map((d, i) => {
        const k = clk(cx, rerolls(i), `${L.dice} ${i + 1}: ${d}`);
        return `<span class="ml-die${k.c}"${k.a}>${d}</span>`;
      }).join("");
      const sum = v.dice.reduce((a, b) => a + b, 0);
      const j = JOB[v.job];
      parts.push(`<section class="ml-panel ml-dicep${isLast(cx, "dice") ? " last" : ""}"><h3>${ico("die")} ${esc(L.dice)} <span class="ml-muted">(${esc(L.lastRoll)}, W8)</span></h3>` +
        `<div class="ml-row">${dice}<span class="ml-dsum">= ${sum}</span>${j ? `<span class="ml-muted">${esc(L.job)} ${esc(v.job)}: ${esc(L.needs)} ≥ ${j.sum}</span>` : ""}</div></section>`);
    }
    if (part === "A") return parts.join("");
    // decks
    const aMoves = sel(cx, (a) => a.kind === "a_draw");
    const decks = (v.deck_sizes || []).filter(([d, k]) => d !== "E" || v.variant === "advanced").filter(([d, k]) => d !== "X" || v.missions).map(([d, k]) => {
      const kk = d === "A" ? clk(cx, aMoves, `${L.deckNames[d]}: ${k}`) : { c: "", a: "" };
      return `<span class="ml-deck ml-deck-${d}${kk.c}${isLast(cx, "deck:" + d) ? " last" : ""}"${kk.a}${an("mldeck-" + d, { origin: true })} title="${esc(L.deckNames[d] || d)}"><b>${k}</b><span>${esc(L.deckNames[d] || d)}</span></span>`;
    }).join("");
    const dA = total(v.disc_a), dM = total(v.disc_m);
    let discs = `<span class="ml-deck ml-disc-pile"><b>${dA}</b><span>${esc(L.deckNames.A)}</span></span><span class="ml-deck ml-disc-pile"><b>${dM}</b><span>${esc(L.deckNames.M)}</span></span>`;
    let extra = "";
    if ((v.disc_c || []).length) extra += `<div class="ml-row ml-small"><span class="ml-lbl">${esc(L.charDiscard)}:</span> ${expand(v.disc_c).map((c) => charChip(cx, c, null)).join("")}</div>`;
    if ((v.job_bottom || []).length) extra += `<div class="ml-row ml-small"><span class="ml-lbl">${esc(L.jobBottom)}:</span> ${v.job_bottom.map((j) => `<span class="ml-jobchip"${an("mljob-" + j)} title="${esc(cardTitle(cx, j))}">${esc(j)} ${esc(JOB[j] ? JOB[j].n : "")}</span>`).join("")}</div>`;
    if (v.star) extra += `<div class="ml-row ml-small">${ico("star")} ${esc(L.star)}</div>`;
    parts.push(`<section class="ml-panel ml-decks"><div class="ml-deckrow"><div><h4>${esc(L.decks)}</h4><div class="ml-row">${decks}</div></div>` +
      `<div><h4>${esc(L.discards)}</h4><div class="ml-row">${discs}</div></div></div>${extra}</section>`);
    // reveals of the last month end
    if ((v.reveals || []).length) {
      const rows = v.reveals.map((r) => {
        if (r[0] === "column") {
          const slot = r[1];
          const cells = (r[2] || []).map(([q, cards]) => `<span class="ml-rev">${seatChip(cx, q)} ${(cards || []).map((c) => `<span class="ml-mini ml-k-${cardKind(c)}" title="${esc(cardTitle(cx, c))}">${esc(c in MONEY ? "$" + MONEY[c] : c)}</span>`).join("")}</span>`).join("");
          return `<div class="ml-row ml-small"><span class="ml-lbl">K${slot}:</span> ${cells}</div>`;
        }
        if (r[0] === "job") {
          return `<div class="ml-row ml-small"><span class="ml-lbl">${esc(L.job)}:</span> <span class="ml-rev">${seatChip(cx, r[1])} ${(r[2] || []).map((c) => `<span class="ml-mini ml-k-${cardKind(c)}" title="${esc(cardTitle(cx, c))}">${esc(c)}</span>`).join("")}</span></div>`;
        }
        return "";
      }).join("");
      parts.push(`<section class="ml-panel ml-reveals"><h3>${esc(L.reveals)}</h3>${rows}</section>`);
    }
    return parts.join("");
  }

  // ------------------------------------------------------------------ render
  function build(cx) {
    const main = `<div class="ml-boardwrap">${boardSVG(cx)}</div>`;
    return defsSVG() + statusHTML(cx) + overHTML(cx) + turnHTML(cx) + lastHTML(cx) + main +
      `<div class="ml-layout"><div class="ml-colA">${familyPickHTML(cx)}${handHTML(cx)}${tableHTML(cx, "A")}</div>` +
      `<div class="ml-colB">${seatsHTML(cx)}${tableHTML(cx, "B")}</div></div>`;
  }

  // clicks and keys on places are the kit's (kit.placeAttrs); the board only redraws on resize
  function wire(root) {
    if (root._mlWired) return;
    root._mlWired = true;
    if (typeof ResizeObserver === "function") {
      const ro = new ResizeObserver(() => {
        const st = root._ml;
        if (!st) return;
        // redraw when the layout changes; a small hysteresis keeps a scrollbar from toggling it
        if (sizeKey(root) !== st.size && Math.abs(rootWidth(root) - st.width) >= 24 && !root._mlPending) {
          root._mlPending = true;
          requestAnimationFrame(() => {
            root._mlPending = false;
            const cur = root._ml;
            if (cur && sizeKey(root) !== cur.size) draw(root, cur.payload, cur.kit);
          });
        }
      });
      ro.observe(root);
      root._mlRO = ro;
    }
  }

  function rootWidth(root) {
    return root.clientWidth || (root.getBoundingClientRect ? root.getBoundingClientRect().width : 0) || window.innerWidth || 1000;
  }
  // the board's layout: "n" (phone, transposed) or the width of the drawing in units
  function sizeKey(root) {
    const w = rootWidth(root);
    return w < 640 ? "n" : String(Math.max(800, Math.min(1000, Math.round(w / 25) * 25)));
  }

  function draw(root, payload, kit) {
    const size = sizeKey(root);
    const narrow = size === "n";
    const cx = makeCtx(payload, kit, narrow);
    cx.boardW = narrow ? 420 : +size;
    const focused = BoardKit.focusKey(root);
    root._ml = { payload, kit, narrow, size, width: rootWidth(root) };
    root.innerHTML = `<div class="ml-board${narrow ? " ml-narrow" : ""}" lang="${esc(cx.lang)}">${build(cx)}</div>`;
    BoardKit.refocus(root, focused);  // after a redraw on resize, keyboard focus stays where it was
  }

  window.TableroBoards = window.TableroBoards || {};
  window.TableroBoards["mafia-legend"] = {
    render(root, payload, kit) {
      loadData(kit.data);
      wire(root);
      draw(root, payload, kit);
    },
  };
})();
