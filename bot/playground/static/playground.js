// The Glory playground page: renders the emulator's messages the way Discord's client does
// (any embed, any Components V2 tree, buttons and selects) and acts as the chosen player.
// Everything shown comes from Discord's own JSON; the page knows no layout of the bot's.
"use strict";

const state = {
  texts: {}, locale: "en", bot: null, guild: null, channels: [], players: [], commands: [],
  problems: {}, aiLevels: [], messages: new Map(), me: null, channelId: null, pending: 0,
  changes: 0, seen: new Map(), failures: [], waiters: [], lastAnswer: null, names: "",
  commandsKey: "",
};
const rendered = new Map(); // message id -> {key, element}
let renderQueued = false;

// ---------------------------------------------------------------- small helpers

function text(key, values = {}) {
  const template = state.texts[key] || key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

function el(tag, className, children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of [].concat(children || [])) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function compareIds(a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function colour(value) {
  return value === null || value === undefined ? "" : "#" + Number(value).toString(16).padStart(6, "0");
}

function player(id) {
  return state.players.find((p) => p.id === id);
}

function userName(id) {
  if (state.bot && state.bot.id === id) return state.bot.name;
  const found = player(id);
  return found ? found.name : "unknown-user";
}

function channelById(id) {
  return state.channels.find((c) => c.id === id);
}

function dmChannelOf(userId) {
  return state.channels.find((c) => c.type === 1 && c.recipient_id === userId);
}

function localized(item, field, locale) {
  const names = item[field + "_localizations"] || {};
  return names[locale] || names[locale.split("-")[0]] || item[field];
}

// ---------------------------------------------------------------- Discord markdown

const INLINE_RULES = [
  [/\*\*\*(.+?)\*\*\*/gs, "<strong><em>$1</em></strong>"],
  [/\*\*(.+?)\*\*/gs, "<strong>$1</strong>"],
  [/__(.+?)__/gs, "<u>$1</u>"],
  [/(^|[^\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)/gs, "$1<em>$2</em>"],
  [/(^|\W)_(?!\s)(.+?)(?<!\s)_(?!\w)/gs, "$1<em>$2</em>"],
  [/~~(.+?)~~/gs, "<s>$1</s>"],
  [/\|\|(.+?)\|\|/gs, '<span class="spoiler">$1</span>'],
];

function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function timestampHtml(seconds, style) {
  const date = new Date(Number(seconds) * 1000);
  const title = date.toLocaleString(state.locale, { dateStyle: "full", timeStyle: "short" });
  return `<time class="dc-timestamp" data-at="${Number(seconds)}" data-style="${style || "f"}" title="${escapeHtml(title)}">${escapeHtml(formatTimestamp(date, style || "f"))}</time>`;
}

function formatTimestamp(date, style) {
  const locale = state.locale;
  switch (style) {
    case "t": return date.toLocaleTimeString(locale, { timeStyle: "short" });
    case "T": return date.toLocaleTimeString(locale, { timeStyle: "medium" });
    case "d": return date.toLocaleDateString(locale, { dateStyle: "short" });
    case "D": return date.toLocaleDateString(locale, { dateStyle: "long" });
    case "F": return date.toLocaleString(locale, { dateStyle: "full", timeStyle: "short" });
    case "R": return relative(date);
    default: return date.toLocaleString(locale, { dateStyle: "long", timeStyle: "short" });
  }
}

function relative(date) {
  const seconds = Math.round((date.getTime() - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(state.locale, { numeric: "auto" });
  const units = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, "second");
}

// Inline markdown on one block of text: code spans and Discord's <...> tokens are cut out
// first (their insides are not markdown), the rest is escaped, then styled.
function inline(source) {
  const kept = [];
  const keep = (html) => `\u0000${kept.push(html) - 1}\u0000`;
  let textValue = source.replace(/\\([*_~|`\\<>#\-[\]()])/g, (m, c) => keep(escapeHtml(c)));
  textValue = textValue.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m, ticks, code) => keep(`<code>${escapeHtml(code)}</code>`));
  textValue = textValue.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (m, at, style) => keep(timestampHtml(at, style)));
  textValue = textValue.replace(/<@!?(\d+)>/g, (m, id) => keep(`<span class="mention">@${escapeHtml(userName(id))}</span>`));
  textValue = textValue.replace(/<#(\d+)>/g, (m, id) => {
    const channel = channelById(id);
    return keep(`<span class="mention">#${escapeHtml(channel ? channel.name : "unknown")}</span>`);
  });
  textValue = textValue.replace(/<@&(\d+)>/g, () => keep('<span class="mention">@role</span>'));
  textValue = textValue.replace(/<a?:(\w+):(\d+)>/g, (m, name) => keep(`<span class="emoji">:${escapeHtml(name)}:</span>`));
  textValue = textValue.replace(/<\/([\w -]+):(\d+)>/g, (m, name) => keep(`<span class="mention">/${escapeHtml(name)}</span>`));
  textValue = textValue.replace(/\[([^\]]+)\]\(<?(https?:\/\/[^)\s>]+)>?\)/g, (m, label, url) => keep(`<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${inline(label)}</a>`));
  textValue = textValue.replace(/<?(https?:\/\/[^\s<>]+[^\s<>.,;:!?)])>?/g, (m, url) => keep(`<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`));
  let html = escapeHtml(textValue);
  for (const [pattern, replacement] of INLINE_RULES) html = html.replace(pattern, replacement);
  html = html.replace(/\n/g, "<br>");
  return html.replace(/\u0000(\d+)\u0000/g, (m, index) => kept[Number(index)]);
}

// Block markdown: code blocks, headings, subtext, quotes and lists; everything else inline.
function markdown(source) {
  if (!source) return "";
  const out = [];
  const lines = String(source).split("\n");
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) out.push(`<div class="md-line">${inline(paragraph.join("\n"))}</div>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = line.match(/^```(\w*)\s*(.*)$/);
    if (fence) {
      flush();
      const code = [];
      let rest = fence[2];
      if (rest.endsWith("```")) {
        out.push(`<pre class="md-code"><code>${escapeHtml(rest.slice(0, -3))}</code></pre>`);
        continue;
      }
      if (rest) code.push(rest);
      i++;
      while (i < lines.length && !lines[i].trimEnd().endsWith("```")) code.push(lines[i++]);
      if (i < lines.length) code.push(lines[i].trimEnd().slice(0, -3));
      out.push(`<pre class="md-code"><code>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    let match;
    if ((match = line.match(/^(#{1,3}) (.+)$/))) {
      flush();
      out.push(`<div class="md-h${match[1].length}">${inline(match[2])}</div>`);
    } else if ((match = line.match(/^-# (.+)$/))) {
      flush();
      out.push(`<div class="md-subtext">${inline(match[1])}</div>`);
    } else if (line.startsWith(">>> ")) {
      flush();
      out.push(`<blockquote>${markdown(lines.slice(i).join("\n").slice(4))}</blockquote>`);
      break;
    } else if ((match = line.match(/^> ?(.*)$/))) {
      flush();
      const quoted = [match[1]];
      while (i + 1 < lines.length && /^> ?/.test(lines[i + 1])) quoted.push(lines[++i].replace(/^> ?/, ""));
      out.push(`<blockquote>${markdown(quoted.join("\n"))}</blockquote>`);
    } else if ((match = line.match(/^(\s*)([-*]|\d+\.) (.+)$/))) {
      flush();
      const ordered = /\d/.test(match[2]);
      const items = [];
      let j = i;
      while (j < lines.length) {
        const item = lines[j].match(/^(\s*)([-*]|\d+\.) (.+)$/);
        if (!item || /\d/.test(item[2]) !== ordered) break;
        items.push(`<li class="depth-${Math.min(Math.floor(item[1].length / 2), 2)}">${inline(item[3])}</li>`);
        j++;
      }
      i = j - 1;
      const tag = ordered ? "ol" : "ul";
      const start = ordered ? ` start="${parseInt(match[2], 10)}"` : "";
      out.push(`<${tag} class="md-list"${start}>${items.join("")}</${tag}>`);
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return out.join("");
}

function markdownNode(source, className) {
  const node = el("div", "markdown " + (className || ""));
  node.innerHTML = markdown(source);
  return node;
}

// ---------------------------------------------------------------- attachments and media

function attachmentFor(message, url) {
  if (!url) return null;
  if (url.startsWith("attachment://")) {
    const name = url.slice("attachment://".length);
    return message.attachments.find((a) => a.filename === name) || null;
  }
  return message.attachments.find((a) => a.url === url) || { url, filename: url.split("/").pop() };
}

function referencedFiles(message) {
  const names = new Set();
  const note = (url) => { if (url && url.startsWith("attachment://")) names.add(url.slice(13)); };
  for (const embed of message.embeds || []) {
    note(embed.image && embed.image.url);
    note(embed.thumbnail && embed.thumbnail.url);
    note(embed.author && embed.author.icon_url);
    note(embed.footer && embed.footer.icon_url);
  }
  walkComponents(message.components || [], (c) => {
    if (c.media) note(c.media.url);
    if (c.file) note(c.file.url);
    for (const item of c.items || []) note(item.media && item.media.url);
  });
  return names;
}

function walkComponents(components, visit) {
  for (const component of components) {
    visit(component);
    walkComponents(component.components || [], visit);
    if (component.accessory) walkComponents([component.accessory], visit);
  }
}

function image(message, url, className, description) {
  const file = attachmentFor(message, url);
  const img = el("img", "dc-image " + (className || ""));
  img.alt = description || (file && file.description) || (file && file.filename) || "";
  img.loading = "lazy";
  if (file && file.url) img.src = file.url;
  else img.classList.add("missing");
  img.addEventListener("click", () => img.classList.toggle("zoomed"));
  return img;
}

function isImage(file) {
  return /\.(png|jpe?g|gif|webp)$/i.test(file.filename || "");
}

function fileCard(file) {
  const size = file.size ? ` · ${(file.size / 1024).toFixed(1)} KB` : "";
  const link = el("a", "dc-file", [el("span", "file-icon", "🗎"), `${file.filename || "file"}${size}`]);
  if (file.url) link.href = file.url;
  return link;
}

// ---------------------------------------------------------------- embeds

function embedNode(message, embed) {
  const node = el("div", "embed");
  if (embed.color !== undefined && embed.color !== null) node.style.borderLeftColor = colour(embed.color);
  const body = el("div", "embed-body");
  if (embed.author && embed.author.name) body.append(el("div", "embed-author", embed.author.name));
  if (embed.title) body.append(markdownNode(embed.title, "embed-title"));
  if (embed.description) body.append(markdownNode(embed.description, "embed-description"));
  if (embed.fields && embed.fields.length) {
    const fields = el("div", "embed-fields");
    for (const field of embed.fields) {
      const cell = el("div", "embed-field" + (field.inline ? " inline" : ""));
      cell.append(markdownNode(field.name, "embed-field-name"), markdownNode(field.value, "embed-field-value"));
      fields.append(cell);
    }
    body.append(fields);
  }
  if (embed.image && embed.image.url) body.append(image(message, embed.image.url, "embed-image"));
  const footer = [];
  if (embed.footer && embed.footer.text) footer.push(embed.footer.text);
  if (embed.timestamp) footer.push(new Date(embed.timestamp).toLocaleString(state.locale));
  if (footer.length) body.append(el("div", "embed-footer", footer.join(" • ")));
  node.append(body);
  if (embed.thumbnail && embed.thumbnail.url) node.append(image(message, embed.thumbnail.url, "embed-thumbnail"));
  return node;
}

// ---------------------------------------------------------------- components (v1 and v2)

const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };

function emojiText(emoji) {
  if (!emoji) return null;
  return el("span", "emoji", emoji.id ? `:${emoji.name}:` : emoji.name);
}

function buttonNode(message, component) {
  const style = BUTTON_STYLES[component.style] || "secondary";
  const button = el("button", `dc-button ${style}`, [emojiText(component.emoji), component.label || null]);
  button.type = "button";
  button.disabled = Boolean(component.disabled);
  if (component.custom_id) button.dataset.customId = component.custom_id;
  button.dataset.messageId = message.id;
  if (style === "link") {
    button.append(el("span", "link-mark", "↗"));
    button.addEventListener("click", () => window.open(component.url, "_blank", "noopener"));
  } else if (style === "premium") {
    button.disabled = true;
    button.title = text("not_emulated");
  } else {
    button.addEventListener("click", () => act({ kind: "click", message_id: message.id, custom_id: component.custom_id }, button));
  }
  return button;
}

function selectNode(message, component) {
  const node = el("div", "dc-select" + (component.disabled ? " disabled" : ""));
  node.dataset.customId = component.custom_id || "";
  node.dataset.messageId = message.id;
  const options = component.options || [];
  const chosen = options.filter((o) => o.default);
  const trigger = el("button", "dc-select-trigger", [
    el("span", chosen.length ? "value" : "placeholder", chosen.length ? chosen.map((o) => o.label).join(", ") : component.placeholder || text("select")),
    el("span", "chevron", "▾"),
  ]);
  trigger.type = "button";
  trigger.disabled = Boolean(component.disabled);
  node.append(trigger);
  if (component.type !== 3) {
    trigger.disabled = true;
    trigger.title = text("not_emulated");
    return node;
  }
  const low = component.min_values ?? 1;
  const high = Math.min(component.max_values ?? 1, options.length);
  const menu = el("div", "dc-select-menu");
  menu.hidden = true;
  menu.addEventListener("click", (event) => event.stopPropagation());
  const picked = new Set();
  const submit = () => {
    menu.hidden = true;
    if (picked.size >= low && picked.size <= high && picked.size) {
      act({ kind: "select", message_id: message.id, custom_id: component.custom_id, values: [...picked] }, trigger);
    }
  };
  for (const option of options) {
    const row = el("button", "dc-option", [
      emojiText(option.emoji),
      el("span", "option-text", [el("span", "option-label", option.label), option.description ? el("span", "option-description", option.description) : null]),
    ]);
    row.type = "button";
    row.dataset.value = option.value;
    row.addEventListener("click", () => {
      if (high <= 1) {
        picked.clear();
        picked.add(option.value);
        submit();
        return;
      }
      if (picked.has(option.value)) picked.delete(option.value);
      else if (picked.size < high) picked.add(option.value);
      row.classList.toggle("picked", picked.has(option.value));
    });
    menu.append(row);
  }
  if (high > 1) {
    const done = el("button", "dc-button primary dc-select-done", "✓");
    done.type = "button";
    done.addEventListener("click", submit);
    menu.append(done);
  }
  trigger.addEventListener("click", (event) => {
    event.stopPropagation();
    document.querySelectorAll(".dc-select-menu").forEach((other) => { if (other !== menu) other.hidden = true; });
    menu.hidden = !menu.hidden;
  });
  node.append(menu);
  return node;
}

function mediaGallery(message, component) {
  const items = component.items || [];
  const node = el("div", `dc-gallery count-${Math.min(items.length, 5)}`);
  for (const item of items) {
    const cell = el("div", "dc-gallery-item" + (item.spoiler ? " spoiler-media" : ""));
    cell.append(image(message, item.media && item.media.url, "gallery-image", item.description));
    node.append(cell);
  }
  return node;
}

function componentNode(message, component) {
  switch (component.type) {
    case 1: return el("div", "dc-row", (component.components || []).map((c) => componentNode(message, c)));
    case 2: return buttonNode(message, component);
    case 3: case 5: case 6: case 7: case 8: return selectNode(message, component);
    case 9: {
      const node = el("div", "dc-section");
      node.append(el("div", "dc-section-text", (component.components || []).map((c) => componentNode(message, c))));
      if (component.accessory) node.append(el("div", "dc-section-accessory", componentNode(message, component.accessory)));
      return node;
    }
    case 10: return markdownNode(component.content, "dc-text");
    case 11: return image(message, component.media && component.media.url, "dc-thumbnail", component.description);
    case 12: return mediaGallery(message, component);
    case 13: {
      const file = attachmentFor(message, component.file && component.file.url) || {};
      return fileCard(file);
    }
    case 14: {
      const node = el("div", `dc-separator spacing-${component.spacing || 1}`);
      if (component.divider !== false) node.classList.add("divider");
      return node;
    }
    case 17: {
      const node = el("div", "dc-container" + (component.spoiler ? " spoiler-media" : ""));
      if (component.accent_color !== undefined && component.accent_color !== null) {
        node.style.borderLeftColor = colour(component.accent_color);
        node.classList.add("accent");
      }
      node.append(...(component.components || []).map((c) => componentNode(message, c)));
      return node;
    }
    default:
      return el("div", "dc-unknown", `component type ${component.type}`);
  }
}

// ---------------------------------------------------------------- messages

const FLAG_EPHEMERAL = 64;
const FLAG_LOADING = 128;
const FLAG_V2 = 1 << 15;

function messageNode(message) {
  const node = el("article", "message");
  node.dataset.messageId = message.id;
  const ephemeral = Boolean(message.flags & FLAG_EPHEMERAL);
  if (ephemeral) node.classList.add("ephemeral");
  const page = message.page || {};
  if (page.command) {
    node.append(el("div", "reply-line", text("used", { user: userName(page.command.user_id), command: "/" + page.command.name })));
  }
  const author = message.author || {};
  const header = el("div", "message-header", [
    el("span", "author", author.username || author.global_name || "?"),
    author.bot ? el("span", "app-tag", text("app_tag")) : null,
    el("span", "sent-at", sentAt(message.timestamp)),
    message.edited_timestamp ? el("span", "edited", text("edited")) : null,
  ]);
  node.append(header);
  const body = el("div", "message-body");
  if (message.flags & FLAG_LOADING) {
    body.append(el("div", "thinking", text("thinking", { bot: author.username || "" })));
  }
  if (message.content) body.append(markdownNode(message.content, "content"));
  for (const embed of message.embeds || []) body.append(embedNode(message, embed));
  const components = (message.components || []).map((c) => componentNode(message, c));
  if (components.length) body.append(el("div", message.flags & FLAG_V2 ? "v2" : "components", components));
  const referenced = referencedFiles(message);
  for (const file of message.attachments || []) {
    if (referenced.has(file.filename)) continue;
    body.append(isImage(file) ? image(message, `attachment://${file.filename}`, "loose-image") : fileCard(file));
  }
  node.append(body);
  if (ephemeral) node.append(el("div", "ephemeral-note", ["👁 ", text("only_you")]));
  return node;
}

function sentAt(timestamp) {
  if (!timestamp) return "";
  const date = new Date(timestamp);
  const time = date.toLocaleTimeString(state.locale, { timeStyle: "short" });
  return date.toDateString() === new Date().toDateString() ? text("today", { time }) : date.toLocaleString(state.locale);
}

function cachedNode(message) {
  const key = `${message.page ? message.page.revision : 0}:${state.names}`;
  const known = rendered.get(message.id);
  if (known && known.key === key) return known.element;
  const element = messageNode(message);
  rendered.set(message.id, { key, element });
  return element;
}

function messagesFor(channelId, viewerId) {
  const list = [];
  for (const message of state.messages.values()) {
    if (message.channel_id !== channelId) continue;
    const viewer = message.page && message.page.viewer_id;
    if (message.flags & FLAG_EPHEMERAL && viewer && viewer !== viewerId) continue;
    list.push(message);
  }
  return list.sort((a, b) => compareIds(a.id, b.id));
}

function fillColumn(container, messages, failures) {
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 40;
  const nodes = messages.map(cachedNode);
  for (const failure of failures) nodes.push(el("div", "failure", failure));
  if (!nodes.length) nodes.push(el("div", "empty", text("empty")));
  const same = nodes.length === container.children.length && nodes.every((n, i) => container.children[i] === n);
  if (!same) container.replaceChildren(...nodes);
  if (atBottom || !same) container.scrollTop = container.scrollHeight;
}

// ---------------------------------------------------------------- the page around them

function render() {
  renderQueued = false;
  state.changes++;
  document.body.dataset.changes = String(state.changes);
  if (!state.me || !player(state.me)) state.me = state.players.length ? state.players[0].id : null;
  const textChannels = state.channels.filter((c) => c.type !== 1);
  if (!state.channelId || !channelById(state.channelId)) state.channelId = textChannels.length ? textChannels[0].id : null;
  renderPlayers();
  renderChannels(textChannels);
  const channel = channelById(state.channelId);
  document.getElementById("channel-title").textContent = channel ? `# ${channel.name}` : "";
  const failures = (id) => state.failures.filter((f) => f.user_id === state.me && f.channel_id === id).map((f) => text(f.command ? "failed_command" : "failed_component"));
  fillColumn(document.getElementById("channel-messages"), channel ? messagesFor(channel.id, state.me) : [], channel ? failures(channel.id) : []);
  const dm = state.me ? dmChannelOf(state.me) : null;
  const me = player(state.me);
  document.getElementById("dm-title").textContent = me ? text("dm_with", { name: me.name, bot: state.bot ? state.bot.name : "" }) : "";
  fillColumn(document.getElementById("dm-messages"), dm ? messagesFor(dm.id, state.me) : [], dm ? failures(dm.id) : []);
  if (dm) state.seen.set(state.me, dmSignature(state.me));
  renderProblems();
  state.waiters = state.waiters.filter((check) => !check());
}

function queueRender() {
  if (renderQueued) return;
  renderQueued = true;
  setTimeout(render, 0);
}

function dmSignature(userId) {
  const dm = dmChannelOf(userId);
  if (!dm) return "";
  return messagesFor(dm.id, userId).map((m) => `${m.id}:${m.page ? m.page.revision : 0}`).join(",");
}

function renderPlayers() {
  const nav = document.getElementById("players");
  const tabs = state.players.map((p) => {
    const tab = el("button", "player-tab" + (p.id === state.me ? " active" : ""), p.name);
    tab.type = "button";
    tab.dataset.playerId = p.id;
    tab.dataset.playerName = p.name;
    tab.title = p.locale || "";
    const seen = state.seen.get(p.id);
    if (p.id !== state.me && seen !== undefined && seen !== dmSignature(p.id)) tab.append(el("span", "badge", text("new_messages")));
    tab.addEventListener("click", () => { state.me = p.id; renderCommands(); queueRender(); });
    return tab;
  });
  nav.replaceChildren(...tabs);
  for (const p of state.players) if (!state.seen.has(p.id)) state.seen.set(p.id, dmSignature(p.id));
}

function renderChannels(channels) {
  const list = document.getElementById("channel-list");
  list.replaceChildren(...channels.map((c) => {
    const item = el("li", c.id === state.channelId ? "active" : "", (c.type === 11 ? "↳ " : "# ") + c.name);
    item.dataset.channelId = c.id;
    item.dataset.channelName = c.name;
    item.addEventListener("click", () => { state.channelId = c.id; queueRender(); });
    return item;
  }));
}

function renderProblems() {
  const problems = state.problems || {};
  const node = document.getElementById("problems");
  const items = [];
  const add = (key, count, details) => {
    if (!count) return;
    const item = el("span", "problem", text(key, { count }));
    if (details) item.title = details;
    items.push(item);
  };
  add("refused", problems.refused_count, (problems.refused || []).map((r) => `${r.method} ${r.path}: ${r.problems.join("; ")}`).join("\n"));
  add("rate_limited", problems.rate_limited);
  add("failed", problems.failed);
  add("unhandled", (problems.unhandled || []).length, (problems.unhandled || []).join("\n"));
  node.replaceChildren(...items);
  const banner = document.getElementById("banner");
  if (problems.bot_stopped) {
    banner.hidden = false;
    banner.textContent = text("bot_stopped");
  } else if (banner.dataset.kind !== "connection") {
    banner.hidden = true;
  }
}

// ---------------------------------------------------------------- the command box

function commandChoices() {
  const me = player(state.me);
  const locale = me ? me.locale || "en-US" : "en-US";
  const choices = [];
  for (const command of state.commands) {
    if ((command.type || 1) !== 1) continue;
    const shown = localized(command, "name", locale);
    const subs = (command.options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) {
      choices.push({ path: command.name, shown: "/" + shown, options: command.options || [], description: localized(command, "description", locale) });
      continue;
    }
    for (const sub of subs) {
      const inner = (sub.options || []).filter((o) => o.type === 1);
      if (sub.type === 2) {
        for (const leaf of inner) choices.push({ path: `${command.name} ${sub.name} ${leaf.name}`, shown: `/${shown} ${localized(sub, "name", locale)} ${localized(leaf, "name", locale)}`, options: leaf.options || [], description: localized(leaf, "description", locale) });
      } else {
        choices.push({ path: `${command.name} ${sub.name}`, shown: `/${shown} ${localized(sub, "name", locale)}`, options: sub.options || [], description: localized(sub, "description", locale) });
      }
    }
  }
  return { choices, locale };
}

function renderCommands() {
  const { choices, locale } = commandChoices();
  // Only when something it shows changed: a rebuilt box would lose what is being typed.
  const key = [locale, state.names, ...choices.map((c) => c.path + c.shown)].join("|");
  if (key === state.commandsKey) return;
  state.commandsKey = key;
  const select = document.getElementById("command");
  const previous = select.value;
  select.replaceChildren(el("option", "", text("command")), ...choices.map((c) => {
    const option = el("option", "", `${c.shown} — ${c.description}`);
    option.value = c.path;
    return option;
  }));
  select.firstChild.value = "";
  if (choices.some((c) => c.path === previous)) select.value = previous;
  renderCommandOptions();
}

function renderCommandOptions() {
  const select = document.getElementById("command");
  const { choices, locale } = commandChoices();
  const chosen = choices.find((c) => c.path === select.value);
  const box = document.getElementById("command-options");
  if (!chosen) { box.replaceChildren(); return; }
  box.replaceChildren(...chosen.options.map((option) => {
    const label = el("label", "command-option", [el("span", "option-name", localized(option, "name", locale) + (option.required ? ` (${text("required")})` : ""))]);
    label.title = localized(option, "description", locale) || "";
    let input;
    if (option.choices && option.choices.length) {
      input = el("select", "", option.choices.map((choice) => {
        const item = el("option", "", localized(choice, "name", locale));
        item.value = String(choice.value);
        return item;
      }));
      if (!option.required) input.prepend(el("option", "", ""));
      if (!option.required) input.value = "";
    } else if (option.type === 5) {
      input = el("select", "", [el("option", "", ""), el("option", "", "true"), el("option", "", "false")]);
    } else if (option.type === 6 || option.type === 9) {
      input = el("select", "", [el("option", "", ""), ...state.players.map((p) => { const item = el("option", "", p.name); item.value = p.id; return item; })]);
    } else {
      input = el("input");
      input.type = option.type === 4 || option.type === 10 ? "number" : "text";
      input.placeholder = localized(option, "description", locale) || "";
      if (option.max_length) input.maxLength = option.max_length;
    }
    input.name = option.name;
    input.dataset.option = option.name;
    label.append(input);
    return label;
  }));
}

async function sendCommand(event) {
  event.preventDefault();
  const command = document.getElementById("command").value;
  if (!command) return;
  const options = {};
  document.querySelectorAll("#command-options [data-option]").forEach((input) => {
    if (input.value !== "") options[input.dataset.option] = input.value;
  });
  const answer = await act({ kind: "slash", command, options, channel_id: state.channelId }, document.getElementById("send-command"));
  if (answer) { // sent: the box empties, as Discord's does
    document.getElementById("command").value = "";
    renderCommandOptions();
  }
}

// ---------------------------------------------------------------- talking to the server

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// An action is done for the page once the bot has answered and the page shows the answer
// (the message the callback created or updated, at least at the answer's revision).
async function act(body, control) {
  return busy(control, async () => {
    const answer = await post("/api/act", { ...body, user_id: state.me });
    state.lastAnswer = answer;
    await shown(answer);
    return answer;
  });
}

async function busy(control, work) {
  state.pending++;
  document.body.dataset.pending = String(state.pending);
  if (control) control.classList.add("pending");
  try {
    return await work();
  } catch (error) {
    toast(error.message);
    return null;
  } finally {
    state.pending--;
    document.body.dataset.pending = String(state.pending);
    if (control) control.classList.remove("pending");
  }
}

function shown(answer) {
  const id = answer.response_message_id;
  if (!id) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      const message = state.messages.get(id);
      if (message && message.page.revision >= answer.revision) { resolve(); return true; }
      return false;
    };
    if (check()) return;
    state.waiters.push(check);
    setTimeout(resolve, 3000); // deleted meanwhile: nothing more to wait for
  });
}

function toast(message) {
  const node = el("div", "toast", message);
  document.getElementById("toasts").append(node);
  setTimeout(() => node.remove(), 6000);
}

function applyWorld(world) {
  for (const key of ["bot", "guild", "channels", "players", "commands", "problems"]) {
    if (key in world) state[key] = world[key];
  }
  if (world.texts) state.texts = world.texts;
  if (world.locale) state.locale = world.locale;
  if (world.ai_levels) state.aiLevels = world.ai_levels;
  document.getElementById("guild-name").textContent = state.guild ? state.guild.name : "";
  state.names = state.players.map((p) => `${p.id}:${p.name}`).join(","); // mentions show names
  renderCommands();
  renderLevels();
}

function applySnapshot(snapshot) {
  applyWorld(snapshot);
  state.messages = new Map(snapshot.messages.map((m) => [m.id, m]));
  queueRender();
}

function renderLevels() {
  const select = document.getElementById("fill-level");
  if (select.options.length === state.aiLevels.length) return;
  select.replaceChildren(...state.aiLevels.map((level) => {
    const option = el("option", "", level.label);
    option.value = level.value;
    return option;
  }));
}

function connect() {
  const source = new EventSource("/api/events");
  const banner = document.getElementById("banner");
  source.addEventListener("open", () => {
    if (banner.dataset.kind === "connection") { banner.hidden = true; banner.dataset.kind = ""; }
  });
  source.addEventListener("error", () => {
    banner.hidden = false;
    banner.dataset.kind = "connection";
    banner.textContent = text("reconnecting");
  });
  source.addEventListener("snapshot", (event) => applySnapshot(JSON.parse(event.data)));
  source.addEventListener("world", (event) => { applyWorld(JSON.parse(event.data)); queueRender(); });
  source.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    state.messages.set(message.id, message);
    queueRender();
  });
  source.addEventListener("delete", (event) => {
    const { id } = JSON.parse(event.data);
    state.messages.delete(id);
    rendered.delete(id);
    queueRender();
  });
  source.addEventListener("failed", (event) => {
    state.failures.push(JSON.parse(event.data));
    queueRender();
  });
}

function tickTimestamps() {
  document.querySelectorAll('.dc-timestamp[data-style="R"]').forEach((node) => {
    node.textContent = relative(new Date(Number(node.dataset.at) * 1000));
  });
}

async function boot() {
  const response = await fetch("/api/state");
  const snapshot = await response.json();
  applySnapshot(snapshot);
  document.documentElement.lang = state.locale;
  document.title = text("title");
  document.querySelectorAll("[data-text]").forEach((node) => { node.textContent = text(node.dataset.text); });
  document.getElementById("player-name").placeholder = text("player_name");
  document.getElementById("channel-name").placeholder = text("channel_name");
  document.getElementById("command").addEventListener("change", renderCommandOptions);
  document.getElementById("command-box").addEventListener("submit", sendCommand);
  document.getElementById("fill-button").addEventListener("click", (event) => {
    const count = Number(document.getElementById("fill-count").value);
    const level = document.getElementById("fill-level").value;
    busy(event.currentTarget, async () => {
      await shown(await post("/api/fill", { user_id: state.me, channel_id: state.channelId, count, level }));
    });
  });
  document.getElementById("add-player").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      const answer = await post("/api/players", { name: form.name.value, locale: form.locale.value });
      state.me = answer.id;
      form.reset();
    } catch (error) { toast(error.message); }
  });
  document.getElementById("add-channel").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      const answer = await post("/api/channels", { name: form.name.value });
      state.channelId = answer.id;
      form.reset();
    } catch (error) { toast(error.message); }
  });
  document.getElementById("phone-toggle").addEventListener("change", (event) => {
    document.body.classList.toggle("phone", event.currentTarget.checked);
  });
  document.addEventListener("click", () => document.querySelectorAll(".dc-select-menu").forEach((menu) => { menu.hidden = true; }));
  document.body.dataset.pending = "0";
  connect();
  setInterval(tickTimestamps, 1000);
}

// Read-only access for tests and for a developer's console.
window.gloryPage = {
  messages: () => [...state.messages.values()],
  players: () => state.players.map((p) => ({ ...p, dm: (dmChannelOf(p.id) || {}).id || null })),
  me: () => state.me,
  channelId: () => state.channelId,
  dmChannel: () => { const dm = state.me && dmChannelOf(state.me); return dm ? dm.id : null; },
  pending: () => state.pending,
  changes: () => state.changes,
  lastAnswer: () => state.lastAnswer,
};

document.addEventListener("DOMContentLoaded", boot);
