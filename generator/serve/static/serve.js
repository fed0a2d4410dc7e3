"use strict";
// The designer's page: draws the build's state the server sends (one event per rebuild) and
// swaps in each new image once it has loaded, so the page never flashes empty. When a build
// is shown, the page fires "pnp-updated" on document, detail {build, cardAt, at}: cardAt when
// the zoomed card's images were in place (else when all were), at when every visible one was.

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const OVERLAYS = ["bleed", "trim", "safe"];
let manifest = null; // the build on screen
let drawnShape = ""; // its pages and cards: the page is redrawn only when they change
let zoomed = null; // the id of the card in the zoom dialog
let latest = null; // the newest state received and not yet shown
let showing = false;

// A LAN link carries the token once: the server has set it as a cookie, so it leaves the
// address bar and the history.
const here = new URL(location.href);
if (here.searchParams.has("token")) {
  here.searchParams.delete("token");
  history.replaceState(history.state, "", here.pathname + here.search + here.hash);
}

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.style.cssText = value; // an attribute would break the CSP
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// ---------------------------------------------------------------- images
// The images are drawn as the chosen colour-vision deficiency sees them, by the server through
// the model `pnp check` judges with ("" is normal vision).
function vision() {
  return $("vision").value;
}

function imageUrl(img, m) {
  const d = img.dataset;
  const shown = img.closest(".sheet") || img;
  const factor = img.closest(".magnified") ? 2 : 1;
  const width = Math.ceil((shown.clientWidth || 300) * (window.devicePixelRatio || 1) * factor);
  const see = vision() ? `&see=${vision()}` : "";
  return d.kind === "page" ? `build/${m.build}/page/${d.index}.jpg?w=${width}${see}`
    : `build/${m.build}/card/${d.id}/${d.side}.png?w=${width}${d.zoom ? "&zoom" : ""}${see}`;
}

function setVision(see) {
  $("vision").value = see;
  const note = $("vision-note");
  note.hidden = !see;
  note.textContent = see ? `Every image shows the print as simulated for ${see} ` +
    "(pnp check judges its colour pairs the same way)." : "";
  document.body.classList.toggle("simulated", Boolean(see));
  try { localStorage.setItem("pnp-serve-vision", see); } catch (e) { /* private mode */ }
  if (manifest) {
    refreshImages(manifest, [...document.querySelectorAll("img[data-kind]")]).then(() =>
      document.dispatchEvent(new CustomEvent("pnp-vision", {detail: see})));
  }
}

function visible(node) {
  if (node.closest("dialog")) return node.closest("dialog").open;
  const r = node.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight && r.width > 0;
}

// Load `url` aside, then show it: the old picture stays until the new one is ready.
function swap(img, url) {
  if (img.dataset.url === url) return Promise.resolve();
  img.dataset.url = url;
  const next = new Image();
  next.src = url;
  return next.decode().then(() => {
    if (img.dataset.url === url) img.src = url;
  }, () => {});
}

function refreshImages(m, images) {
  return Promise.all(images.map((img) => {
    const url = imageUrl(img, m);
    if (visible(img)) return swap(img, url);
    img.dataset.url = url; // off screen: the browser loads it when scrolled to
    img.loading = "lazy";
    img.src = url;
    return null;
  }));
}

// ---------------------------------------------------------------- overlays
// A card's outlines and size: a game of several components has them per component.
function geometry(id) {
  const c = card(id);
  return manifest.shapes && c ? manifest.shapes[c.component] : manifest.card;
}

// What the page calls a card: "#12", or "tokens #3" in a game of several components.
function labelOf(c) {
  return c.label || `#${c.id}`;
}

function outlineGroup(id, x, y, turn) {
  const o = geometry(id);
  const g = el("svg:g", {transform: `translate(${x} ${y}) rotate(${turn} ${o.w / 2} ${o.h / 2})`});
  for (const name of OVERLAYS) {
    if (o[name]) g.append(el("svg:path", {class: `ov-${name}`, d: o[name]}));
  }
  return g;
}

// A card that is not a rectangle, shown alone: what lies outside its cut (its neighbours'
// corners on a sheet of triangles or hexagons) is veiled, so the card stands out.
function veil(side, id) {
  const o = geometry(id);
  if (o.shape === "rect") return null;
  const [, , w, h] = side.crop;
  const [x, y] = side.trim;
  return el("svg:path", {class: "veil", "fill-rule": "evenodd",
    d: `M ${-x} ${-y} h ${w} v ${h} h ${-w} Z ${o.trim}`});
}

function setOverlay(name, on) {
  document.body.classList.toggle(`show-${name}`, on);
  try { localStorage.setItem(`pnp-serve-${name}`, on ? "1" : ""); } catch (e) { /* private mode */ }
}

// ---------------------------------------------------------------- drawing
function shapeOf(m) {
  return JSON.stringify([m.pages, m.cards.map((c) => [c.id, c.front, c.back]), m.card,
    m.shapes]);
}

// A game of several components: a picker shows one component's pages and pieces, or all.
function drawPicker(m) {
  const pick = $("component");
  const names = (m.components || []).map((c) => c.name);
  $("component-pick").hidden = names.length === 0;
  const was = pick.value;
  pick.replaceChildren(el("option", {value: "", text: "all components"}),
    ...(m.components || []).map((c) => el("option", {value: c.name,
      text: `${c.name} (${c.kind})`})));
  pick.value = names.includes(was) ? was : "";
}

function drawHeader(m) {
  $("title").textContent = m.title || m.game;
  document.title = `${m.title || m.game} · pnp serve`;
  $("summary").textContent = `${m.summary} → ${m.path}`;
  $("page-count").textContent = `(${m.pages.length})`;
  $("card-count").textContent = `(${m.cards.length})`;
  $("warning-count").textContent = `(${m.warnings.length})`;
  $("warning-link").hidden = m.warnings.length === 0;
  const pdf = $("pdf-link");
  pdf.href = `build/${m.build}/game.pdf`;
  pdf.hidden = false;
}

function cardLinks(ids) {
  return ids.map((id) => el("a", {href: `#card-${id}`, class: "card-link",
    text: card(id) ? labelOf(card(id)) : `#${id}`}));
}

function drawWarnings(m) {
  const list = $("warning-lines");
  list.replaceChildren(...m.warnings.map((w) => el("li", {}, el("span", {text: w.text}),
    w.cards.length ? el("span", {class: "links"}, ...cardLinks(w.cards)) : null)));
  $("warnings").hidden = m.warnings.length === 0;
}

function drawPages(m) {
  const figures = m.pages.map((page, index) => {
    const overlay = el("svg:svg", {class: "ov", viewBox: `0 0 ${page.w} ${page.h}`,
      preserveAspectRatio: "none"});
    for (const c of page.cards) {
      const g = outlineGroup(c.id, c.x, c.y, c.turn);
      const o = geometry(c.id);
      g.append(el("svg:rect", {class: "hit", width: o.w, height: o.h,
        "data-id": c.id, onclick: () => openZoom(c.id)},
      el("svg:title", {text: card(c.id) ? labelOf(card(c.id)) : `#${c.id}`})));
      overlay.append(g);
    }
    const img = el("img", {alt: `page ${index + 1} (${page.side})`, "data-kind": "page",
      "data-index": index});
    const what = page.label ? `${page.label} · ` : "";
    return el("figure", {class: "page", id: `page-${index + 1}`,
      "data-components": [page.label || "", ...page.cards.map((c) => c.component || "")]
        .join(" ")},
    el("div", {class: "sheet", style: `aspect-ratio: ${page.w} / ${page.h}`}, img, overlay),
    el("figcaption", {text: `page ${index + 1} · ${what}${page.side}`}));
  });
  $("page-list").replaceChildren(...figures);
  filterPages();
}

function filterPages() {
  const chosen = $("component").value;
  for (const fig of document.querySelectorAll("#page-list .page")) {
    fig.hidden = chosen !== "" && !fig.dataset.components.split(" ").includes(chosen);
  }
}

function drawCards(m) {
  const tiles = m.cards.map((c) => {
    const side = c.front ? "front" : "back";
    const crop = c[side].crop;
    return el("button", {type: "button", class: "card", "data-id": c.id,
      onclick: () => openZoom(c.id)},
    el("div", {class: "sheet", style: `aspect-ratio: ${crop[2]} / ${crop[3]}`},
      el("img", {alt: `card #${c.id} ${c.name}`, "data-kind": "card", "data-id": c.id,
        "data-side": side}),
      veil(c[side], c.id) && el("svg:svg", {class: "ov", viewBox: `0 0 ${crop[2]} ${crop[3]}`,
        preserveAspectRatio: "none"}, el("svg:g", {transform:
          `translate(${c[side].trim[0]} ${c[side].trim[1]})`}, veil(c[side], c.id)))),
    el("span", {class: "name"}, el("b", {text: labelOf(c)}), " ", el("span", {text: c.name})));
  });
  $("card-list").replaceChildren(...tiles);
  filterCards();
}

function renameCards(m) {
  for (const c of m.cards) {
    const tile = document.querySelector(`#card-list .card[data-id="${c.id}"]`);
    if (tile) {
      tile.querySelector(".name span").textContent = c.name;
      tile.querySelector("img").alt = `card #${c.id} ${c.name}`;
    }
  }
}

function filterCards() {
  const q = $("card-search").value.trim().toLowerCase().replace(/^#/, "");
  const chosen = $("component").value;
  let shown = 0;
  for (const tile of document.querySelectorAll("#card-list .card")) {
    const card = manifest && manifest.cards.find((c) => String(c.id) === tile.dataset.id);
    const own = card && card.label ? card.label.split("#")[1] : tile.dataset.id;
    const match = (!chosen || (card && card.component === chosen)) && (!q || own === q
      || (card && (card.name.toLowerCase().includes(q)
        || labelOf(card).toLowerCase().includes(q))));
    tile.hidden = !match;
    if (match) shown += 1;
  }
  $("no-match").hidden = shown > 0 || !manifest;
}

// ---------------------------------------------------------------- zoom
function card(id) {
  return manifest && manifest.cards.find((c) => c.id === id);
}

function drawZoom() {
  const c = card(zoomed);
  if (!c) return;
  $("zoom-title").textContent = `${labelOf(c)} ${c.name}`;
  const sides = ["front", "back"].filter((side) => c[side]).map((side) => {
    const {crop, trim} = c[side];
    const outlines = outlineGroup(c.id, trim[0], trim[1], 0);
    const veiled = veil(c[side], c.id);
    if (veiled) outlines.prepend(veiled);
    const overlay = el("svg:svg", {class: "ov", viewBox: `0 0 ${crop[2]} ${crop[3]}`,
      preserveAspectRatio: "none"}, outlines);
    const img = el("img", {alt: `card #${c.id} ${side}`, "data-kind": "card", "data-id": c.id,
      "data-side": side, "data-zoom": "1"});
    const fig = el("figure", {class: "side", "data-side": side},
      el("div", {class: "sheet", style: `aspect-ratio: ${crop[2]} / ${crop[3]}`}, img, overlay),
      el("figcaption", {text: vision() ? `${side} · as seen with ${vision()}` : side}));
    fig.addEventListener("click", () => {
      fig.classList.toggle("magnified");
      refreshImages(manifest, [img]);
    });
    return fig;
  });
  $("zoom-sides").replaceChildren(...sides);
  const about = manifest.warnings.filter((w) => w.cards.includes(c.id));
  $("zoom-warnings").replaceChildren(...about.map((w) => el("li", {text: w.text})));
}

function openZoom(id) {
  if (!card(id)) return;
  zoomed = id;
  history.replaceState(null, "", `#card-${id}`);
  drawZoom();
  const dialog = $("zoom");
  if (!dialog.open) dialog.showModal();
  refreshImages(manifest, [...dialog.querySelectorAll("img[data-kind]")]);
}

function step(by) {
  const ids = [...document.querySelectorAll("#card-list .card:not([hidden])")]
    .map((t) => Number(t.dataset.id));
  const at = ids.indexOf(zoomed);
  if (ids.length) openZoom(ids[(at + by + ids.length) % ids.length]);
}

function fromHash() {
  const found = /^#card-(\d+)$/.exec(location.hash);
  if (found) openZoom(Number(found[1]));
}

// ---------------------------------------------------------------- state
function drawErrors(state) {
  $("error-lines").replaceChildren(...state.errors.map((line) => el("li", {text: line})));
  $("errors").hidden = state.errors.length === 0;
  const count = `${state.errors.length} error${state.errors.length > 1 ? "s" : ""}`;
  $("status").textContent = !state.when ? "building…"
    : state.errors.length ? `not built ${state.when}: ${count}` : `built ${state.when}`;
  $("kept").textContent = state.manifest
    ? "The pages below are the last good build; fix the file and save again."
    : "There is no good build yet: fix the file and save again.";
  if (!state.manifest && state.errors.length) $("summary").textContent = "no good build yet";
}

async function show(state) {
  drawErrors(state);
  const m = state.manifest;
  if (!m || (manifest && m.build === manifest.build)) {
    document.dispatchEvent(new CustomEvent("pnp-state", {detail: state}));
    return;
  }
  const redraw = shapeOf(m) !== drawnShape;
  manifest = m;
  drawHeader(m);
  drawPicker(m);
  drawWarnings(m);
  if (redraw) {
    drawPages(m);
    drawCards(m);
    drawnShape = shapeOf(m);
  } else {
    renameCards(m);
    filterCards();
  }
  let cardAt = null;
  const dialog = $("zoom");
  if (dialog.open) {
    if (card(zoomed)) {
      if (redraw) drawZoom();
      else {
        $("zoom-title").textContent = `${labelOf(card(zoomed))} ${card(zoomed).name}`;
        const about = m.warnings.filter((w) => w.cards.includes(zoomed));
        $("zoom-warnings").replaceChildren(...about.map((w) => el("li", {text: w.text})));
      }
      await refreshImages(m, [...dialog.querySelectorAll("img[data-kind]")]);
      cardAt = Date.now();
    } else dialog.close();
  }
  await refreshImages(m, [...document.querySelectorAll("main img[data-kind]")]);
  const at = Date.now();
  window.pnpShown = {build: m.build, cardAt: cardAt || at, at, receivedAt: state.receivedAt};
  document.dispatchEvent(new CustomEvent("pnp-updated", {detail: window.pnpShown}));
  fromHashOnce();
}

let hashDone = false;
function fromHashOnce() {
  if (!hashDone) { hashDone = true; fromHash(); }
}

// The newest state only: a state that arrives while one is drawn waits, and replaces any
// state that was waiting.
async function receive(state) {
  latest = state;
  if (showing) return;
  showing = true;
  try {
    while (latest) {
      const next = latest;
      latest = null;
      window.pnpState = next;
      await show(next);
    }
  } finally {
    showing = false;
  }
}

function connect() {
  const events = new EventSource("events");
  events.onopen = () => $("status").classList.remove("offline");
  events.onmessage = (e) => receive({...JSON.parse(e.data), receivedAt: Date.now()});
  events.onerror = () => {
    $("status").textContent = "the server is not answering (pnp serve stopped?); retrying…";
    $("status").classList.add("offline");
  };
}

document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll("input[data-overlay]")) {
    let on = false;
    try { on = localStorage.getItem(`pnp-serve-${box.dataset.overlay}`) === "1"; } catch (e) { /* private mode */ }
    box.checked = on;
    setOverlay(box.dataset.overlay, on);
    box.addEventListener("change", () => setOverlay(box.dataset.overlay, box.checked));
  }
  let see = "";
  try { see = localStorage.getItem("pnp-serve-vision") || ""; } catch (e) { /* private mode */ }
  if (![...$("vision").options].some((o) => o.value === see)) see = "";
  setVision(see);
  $("vision").addEventListener("change", () => setVision(vision()));
  $("card-search").addEventListener("input", filterCards);
  $("component").addEventListener("change", () => { filterCards(); filterPages(); });
  $("zoom-close").addEventListener("click", () => $("zoom").close());
  $("zoom-prev").addEventListener("click", () => step(-1));
  $("zoom-next").addEventListener("click", () => step(1));
  $("zoom").addEventListener("close", () => {
    zoomed = null;
    history.replaceState(null, "", location.pathname + location.search);
  });
  $("zoom").addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") step(-1);
    if (e.key === "ArrowRight") step(1);
  });
  window.addEventListener("hashchange", fromHash);
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => manifest && refreshImages(manifest,
      [...document.querySelectorAll("img[data-kind]")]), 300);
  });
  connect();
});
