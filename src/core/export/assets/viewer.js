// The exported session's viewer. Runs in the browser with no network: the session arrives as
// base64-encoded UTF-8 JSON in #session-data; marked is inlined before this script.
(function () {
  "use strict";

  // ---- data ------------------------------------------------------------------------------
  const raw = atob(document.getElementById("session-data").textContent.trim());
  const utf8 = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) utf8[i] = raw.charCodeAt(i);
  const data = JSON.parse(new TextDecoder("utf-8").decode(utf8));
  const header = data.header || null;
  const entries = Array.isArray(data.entries) ? data.entries : [];

  const params = new URLSearchParams(globalThis.location.search);
  const entryById = new Map(entries.map((e) => [e.id, e]));
  const pick = (id) => (id && entryById.has(id) ? id : null);
  let leafId = pick(params.get("leafId")) || pick(data.leafId) ||
    (entries.length ? entries[entries.length - 1].id : null);
  const linkTarget = pick(params.get("targetId"));
  const openingLeaf = leafId;

  const childrenOf = new Map();
  const roots = [];
  for (const e of entries) {
    const parent = e.parentId && entryById.has(e.parentId) ? e.parentId : null;
    if (parent === null) roots.push(e);
    else {
      if (!childrenOf.has(parent)) childrenOf.set(parent, []);
      childrenOf.get(parent).push(e);
    }
  }

  // Tool calls by id, so a result can show the call it answers (and the call its result).
  const callById = new Map();
  const resultByCallId = new Map();
  const labels = new Map();
  for (const e of entries) {
    if (e.type === "label" && e.targetId) {
      if (e.label) labels.set(e.targetId, e.label);
      else labels.delete(e.targetId);
    }
    if (e.type !== "message") continue;
    const m = e.message;
    if (m.role === "assistant" && Array.isArray(m.content)) {
      for (const block of m.content) if (block.type === "toolCall") callById.set(block.id, block);
    } else if (m.role === "toolResult") resultByCallId.set(m.toolCallId, m);
  }

  // ---- helpers ---------------------------------------------------------------------------
  const esc = (s) =>
    String(s ?? "").replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
    );
  // deno-lint-ignore no-control-regex
  const ANSI = /\x1b\[([0-9;?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
  const ANSI_16 = [
    "#000000",
    "#800000",
    "#008000",
    "#808000",
    "#000080",
    "#800080",
    "#008080",
    "#c0c0c0",
    "#808080",
    "#ff0000",
    "#00ff00",
    "#ffff00",
    "#0000ff",
    "#ff00ff",
    "#00ffff",
    "#ffffff",
  ];
  function color256(n) {
    if (n < 16) return ANSI_16[n];
    if (n >= 232) {
      const v = 8 + (n - 232) * 10;
      return `rgb(${v}, ${v}, ${v})`;
    }
    const i = n - 16;
    const step = (c) => (c ? 55 + c * 40 : 0);
    return `rgb(${step(Math.floor(i / 36))}, ${step(Math.floor(i / 6) % 6)}, ${step(i % 6)})`;
  }
  // Terminal output keeps its colours: SGR sequences become styled spans, everything else
  // (cursor movement, titles, links) is dropped. Returns escaped HTML.
  function ansiToHtml(text) {
    let html = "";
    let style = {};
    let last = 0;
    const flush = (chunk) => {
      if (!chunk) return;
      const css = Object.entries(style).map(([k, v]) => `${k}:${v}`).join(";");
      html += css ? `<span style="${css}">${esc(chunk)}</span>` : esc(chunk);
    };
    for (const match of String(text ?? "").matchAll(ANSI)) {
      flush(text.slice(last, match.index));
      last = match.index + match[0].length;
      if (match[2] !== "m") continue;
      const codes = (match[1] || "0").split(";").map((c) => Number(c || 0));
      for (let i = 0; i < codes.length; i++) {
        const c = codes[i];
        if (c === 0) style = {};
        else if (c === 1) style["font-weight"] = "bold";
        else if (c === 2) style.opacity = "0.7";
        else if (c === 3) style["font-style"] = "italic";
        else if (c === 4) style["text-decoration"] = "underline";
        else if (c === 22) delete style["font-weight"], delete style.opacity;
        else if (c === 23) delete style["font-style"];
        else if (c === 24) delete style["text-decoration"];
        else if (c >= 30 && c <= 37) style.color = ANSI_16[c - 30];
        else if (c >= 90 && c <= 97) style.color = ANSI_16[c - 90 + 8];
        else if (c === 39) delete style.color;
        else if (c >= 40 && c <= 47) style["background-color"] = ANSI_16[c - 40];
        else if (c >= 100 && c <= 107) style["background-color"] = ANSI_16[c - 100 + 8];
        else if (c === 49) delete style["background-color"];
        else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
          style[c === 38 ? "color" : "background-color"] = color256(codes[i + 2] || 0);
          i += 2;
        } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
          style[c === 38 ? "color" : "background-color"] = `rgb(${codes[i + 2] || 0}, ${codes[i + 3] || 0}, ${
            codes[i + 4] || 0
          })`;
          i += 4;
        }
      }
    }
    flush(String(text ?? "").slice(last));
    return html;
  }
  const oneLine = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
  const cut = (s, n = 100) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
  const textOf = (content) => {
    if (typeof content === "string") return content;
    if (!Array.isArray(content)) return "";
    return content.filter((b) => b && b.type === "text").map((b) => b.text).join("\n");
  };
  // A prompt that invoked a skill carries it as `<skill name=".." location="..">…</skill>`, then the
  // user's own words; the page shows the skill as a folded block and the words as the message.
  const SKILL = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/;
  const skillOf = (text) => {
    const m = SKILL.exec(text);
    return m ? { name: m[1], location: m[2], body: m[3], rest: (m[4] || "").trim() } : null;
  };
  const imagesOf = (
    content,
  ) => (Array.isArray(content) ? content.filter((b) => b && b.type === "image") : []);
  const home = (p) => String(p ?? "").replace(/^\/(home|Users)\/[^/]+/, "~");
  const fmtTokens = (
    n,
  ) => (n < 1000 ? String(n) : n < 1e6 ? (n / 1000).toFixed(1) + "k" : (n / 1e6).toFixed(1) + "M");
  const fmtTime = (ts) => (ts ? new Date(ts).toLocaleTimeString() : "");

  function markdown(text) {
    try {
      // Raw HTML in a message is shown as text, never run.
      const renderer = new marked.Renderer();
      renderer.html = (token) => esc(typeof token === "string" ? token : token.text);
      return marked.parse(String(text ?? ""), { renderer, gfm: true, breaks: false });
    } catch {
      return `<pre>${esc(text)}</pre>`;
    }
  }

  function imagesHtml(blocks) {
    if (!blocks.length) return "";
    const imgs = blocks.map((b) => {
      const mime = /^image\/[a-z0-9.+-]+$/i.test(b.mimeType || "") ? b.mimeType : "image/png";
      const payload = String(b.data || "").replace(/[^A-Za-z0-9+/=]/g, "");
      return `<img class="message-image" src="data:${mime};base64,${payload}" alt="image">`;
    });
    return `<div class="message-images">${imgs.join("")}</div>`;
  }

  // Long output shows its first lines; the rest unfolds on click (or with O for all).
  function outputHtml(text, maxLines) {
    const lines = String(text ?? "").replace(/\t/g, "   ").split("\n");
    while (lines.length && lines[lines.length - 1] === "") lines.pop();
    if (!lines.length) return "";
    // Each line converts on its own, so a colour never spans the fold.
    const conv = (part) => part.map(ansiToHtml).join("\n");
    if (lines.length <= maxLines) return `<div class="tool-output">${conv(lines)}</div>`;
    const head = conv(lines.slice(0, maxLines));
    const rest = "\n" + conv(lines.slice(maxLines));
    return `<div class="tool-output">${head}<span class="more">${rest}</span>\n<button type="button" class="expand-btn">… ${
      lines.length - maxLines
    } more lines</button></div>`;
  }

  function diffHtml(diff) {
    return `<div class="diff">${
      String(diff).split("\n").map((line) => {
        const kind = line.startsWith("+") ? "added" : line.startsWith("-") ? "removed" : "context";
        return `<div class="diff-${kind}">${esc(line)}</div>`;
      }).join("")
    }</div>`;
  }

  function lineRange(args) {
    const offset = Number(args.offset);
    const limit = Number(args.limit);
    if (!offset && !limit) return "";
    const start = offset || 1;
    return limit ? `:${start}-${start + limit - 1}` : `:${start}`;
  }

  // ---- tool calls, as the terminal shows them ----------------------------------------------
  function toolHtml(call) {
    const result = resultByCallId.get(call.id);
    const args = call.arguments || {};
    const state = !result ? "pending" : result.isError ? "error" : "success";
    const out = result ? textOf(result.content) : "";
    const pics = result ? imagesHtml(imagesOf(result.content)) : "";
    let head;
    let body = "";
    switch (call.name) {
      case "bash":
        head = `<span class="tool-command">$ ${esc(args.command)}</span>`;
        body = outputHtml(out, 5);
        break;
      case "read":
        head = `read <span class="tool-path">${esc(home(args.path))}</span><span class="tool-range">${
          esc(lineRange(args))
        }</span>`;
        body = outputHtml(out, 10) + pics;
        break;
      case "write":
        head = `write <span class="tool-path">${esc(home(args.path))}</span>`;
        body = outputHtml(String(args.content ?? ""), 10) +
          (result && result.isError ? outputHtml(out, 10) : "");
        break;
      case "edit":
        head = `edit <span class="tool-path">${esc(home(args.path))}</span>`;
        body = result && result.details && result.details.diff && !result.isError
          ? diffHtml(result.details.diff)
          : outputHtml(out, 10);
        break;
      case "ls":
      case "find":
      case "grep":
        head = `${esc(call.name)} <span class="tool-path">${esc(args.pattern ? args.pattern + " " : "")}${
          esc(home(args.path || "."))
        }</span>`;
        body = outputHtml(out, 10);
        break;
      default:
        head = esc(call.name);
        body = `<div class="tool-args">${esc(JSON.stringify(args, null, 2))}</div>` + outputHtml(out, 10) +
          pics;
    }
    return `<div class="tool-execution ${state}" data-tool-call-id="${
      esc(call.id)
    }"><div class="tool-header">${head}</div>${body}</div>`;
  }

  // ---- one entry -----------------------------------------------------------------------
  function entryBody(e) {
    if (e.type === "message") {
      const m = e.message;
      const time = `<div class="message-timestamp">${esc(fmtTime(e.timestamp))}</div>`;
      switch (m.role) {
        case "user": {
          const text = textOf(m.content);
          const skill = skillOf(text);
          const skillHtml = skill
            ? `<div class="skill-invocation"><div class="skill-invocation-label">skill: ${
              esc(skill.name)
            }</div><div class="skill-invocation-content markdown-content">${markdown(skill.body)}</div></div>`
            : "";
          const words = skill ? skill.rest : text;
          const userHtml = `<div class="user-message">${time}<div class="markdown-content">${
            markdown(words)
          }</div>${imagesHtml(imagesOf(m.content))}</div>`;
          return skillHtml + (words || !skill ? userHtml : "");
        }
        case "assistant": {
          let html = "";
          for (const block of Array.isArray(m.content) ? m.content : []) {
            if (block.type === "text" && block.text.trim()) {
              html += `<div class="assistant-text markdown-content">${markdown(block.text)}</div>`;
            } else if (block.type === "thinking" && String(block.thinking || "").trim()) {
              html += `<div class="thinking-block"><div class="thinking-text">${
                esc(block.thinking)
              }</div><div class="thinking-collapsed">Thinking ...</div></div>`;
            } else if (block.type === "toolCall") {
              html += toolHtml(block);
            }
          }
          if (m.stopReason === "aborted") html += `<div class="error-text">Aborted</div>`;
          else if (m.stopReason === "error") {
            html += `<div class="error-text">Error: ${esc(m.errorMessage || "Unknown error")}</div>`;
          }
          return `<div class="assistant-message">${time}${html}</div>`;
        }
        case "toolResult":
          // Shown with its call; a result whose call is not on this path still shows.
          return callById.has(m.toolCallId)
            ? ""
            : `<div class="tool-execution ${m.isError ? "error" : "success"}"><div class="tool-header">${
              esc(m.toolName || "tool")
            }</div>${outputHtml(textOf(m.content), 10)}</div>`;
        case "bashExecution":
          return `<div class="bash-execution">${time}<div class="tool-command">$ ${esc(m.command)}</div>${
            outputHtml(m.output || "", 10)
          }${m.exitCode ? `<div class="error-text">exit code ${esc(m.exitCode)}</div>` : ""}</div>`;
        case "custom":
          return customHtml(m.customType, m.content, m.display === false);
        case "branchSummary":
          return `<div class="branch-summary"><div class="branch-summary-header">Branch summary</div><div class="markdown-content">${
            markdown(m.summary)
          }</div></div>`;
        case "compactionSummary":
          return `<div class="compaction"><div class="compaction-label">Compaction</div><div class="markdown-content">${
            markdown(m.summary)
          }</div></div>`;
        case "system":
          return systemHtml(e);
        default:
          return `<div class="system-entry">[${esc(m.role)}]</div>`;
      }
    }
    switch (e.type) {
      case "compaction":
        return `<div class="compaction"><div class="compaction-label">Compaction (${
          esc(fmtTokens(e.tokensBefore || 0))
        } tokens before)</div><div class="compaction-content markdown-content">${
          markdown(e.summary)
        }</div></div>`;
      case "branch_summary":
        return `<div class="branch-summary"><div class="branch-summary-header">Branch summary</div><div class="markdown-content">${
          markdown(e.summary)
        }</div></div>`;
      case "custom_message":
        return customHtml(e.customType, e.content, e.display === false);
      case "model_change":
        return `<div class="model-change">Switched to model: <span class="model-name">${esc(e.provider)}/${
          esc(e.modelId)
        }</span></div>`;
      case "thinking_level_change":
        return `<div class="settings-entry">Thinking level: ${esc(e.thinkingLevel)}</div>`;
      default:
        return "";
    }
  }

  // ---- system prompt entries ----------------------------------------------------------------
  // The first system entry on a branch holds the whole prompt (text plus named sections); later
  // ones patch it: a section set to null is removed, tools are added or removed.
  const holdsSystemState = (e) =>
    (e.type === "message" && e.message.role === "system") || (e.type === "compaction" && e.systemMessage);
  const hasSystemEntries = entries.some((e) => e.type === "message" && e.message.role === "system");

  function startsSystemPrompt(e) {
    for (
      let p = e.parentId ? entryById.get(e.parentId) : undefined;
      p;
      p = p.parentId ? entryById.get(p.parentId) : undefined
    ) {
      if (holdsSystemState(p)) return false;
      if (p.parentId === p.id) break;
    }
    return true;
  }

  function systemChanges(m) {
    const what = [];
    if (textOf(m.content)) what.push("instructions");
    for (const [name, value] of Object.entries(m.sections || {})) {
      what.push(value === null ? `-${name}` : name);
    }
    const tools = [
      ...(m.toolsAdded || []).map((t) => `+${t.name}`),
      ...(m.toolsRemoved || []).map((t) => `-${t.name}`),
    ];
    if (tools.length) what.push(`tools ${tools.join(" ")}`);
    return what.join(", ");
  }

  function promptBlock(title, text) {
    const lines = text.split("\n");
    const long = lines.length > 10;
    return `<div class="system-prompt${long ? " expandable" : ""}"><div class="system-prompt-header">${
      esc(title)
    }</div>` +
      (long
        ? `<div class="system-prompt-preview">${
          esc(lines.slice(0, 10).join("\n"))
        }</div><div class="system-prompt-expand-hint">... (${
          lines.length - 10
        } more lines, click to expand)</div>`
        : "") +
      `<div class="system-prompt-full">${esc(text)}</div></div>`;
  }

  function toolsBlock(title, tools) {
    if (!Array.isArray(tools) || !tools.length) return "";
    const item = (t) => {
      const props = (t.parameters && t.parameters.properties) || {};
      const required = (t.parameters && t.parameters.required) || [];
      const params = Object.entries(props).map(([name, prop]) =>
        `<div class="tool-param"><span class="tool-param-name">${
          esc(name)
        }</span> <span class="tool-param-type">${esc(prop.type || "any")}</span> <span class="${
          required.includes(name) ? 'tool-param-required">required' : 'tool-param-optional">optional'
        }</span>${
          prop.description ? `<div class="tool-param-desc">${esc(prop.description)}</div>` : ""
        }</div>`
      ).join("");
      return `<div class="tool-item${params ? " has-params" : ""}"><span class="tool-item-name">${
        esc(t.name)
      }</span> - <span class="tool-item-desc">${esc(t.description || "")}</span>${
        params
          ? ` <span class="tool-params-hint"></span><div class="tool-params-content">${params}</div>`
          : ""
      }</div>`;
    };
    return `<div class="tools-list"><div class="tools-header">${esc(title)}</div><div class="tools-content">${
      tools.map(item).join("")
    }</div></div>`;
  }

  function systemHtml(e) {
    const m = e.message;
    const sections = Object.entries(m.sections || {});
    let html;
    if (startsSystemPrompt(e)) {
      const text = [textOf(m.content), ...sections.map(([, v]) => v).filter((v) => v !== null)].filter((x) =>
        x
      ).join("\n\n");
      html = (text ? promptBlock("System Prompt", text) : "") + toolsBlock("Available Tools", m.toolsAdded);
    } else {
      const text = [
        textOf(m.content) || null,
        ...sections.map(([name, v]) =>
          v === null
            ? `Removed system prompt section "${name}".`
            : `Updated system prompt section "${name}":\n\n${v}`
        ),
      ].filter((x) => x).join("\n\n");
      const what = systemChanges(m);
      html = (text ? promptBlock(`System Prompt Update${what ? ": " + what : ""}`, text) : "") +
        toolsBlock("Tools Added", m.toolsAdded) +
        toolsBlock("Tools Removed", (m.toolsRemoved || []).map((t) => ({ name: t.name })));
    }
    return html ? `<div class="system-entry">${html}</div>` : "";
  }

  function customHtml(type, content, hidden) {
    const text = typeof content === "string" ? content : textOf(content);
    const pics = typeof content === "string" ? "" : imagesHtml(imagesOf(content));
    return `<div class="hook-message${hidden ? " hook-message-hidden" : ""}"><div class="hook-type">[${
      esc(type)
    }]</div><div class="markdown-content">${markdown(text)}</div>${pics}</div>`;
  }

  // ---- the path to a leaf, and the tree --------------------------------------------------
  function pathTo(id) {
    const path = [];
    for (let e = entryById.get(id); e; e = e.parentId ? entryById.get(e.parentId) : undefined) path.push(e);
    return path.reverse();
  }

  // The newest entry below `id` (following the latest child), so clicking a node shows its branch.
  function newestLeafUnder(id) {
    let current = id;
    for (;;) {
      const kids = childrenOf.get(current);
      if (!kids || !kids.length) return current;
      current = kids.reduce((a, b) => (String(b.timestamp) >= String(a.timestamp) ? b : a)).id;
    }
  }

  function treeText(e) {
    const label = labels.has(e.id) ? `<span class="tree-label">[${esc(labels.get(e.id))}]</span> ` : "";
    const short = (s) => esc(cut(oneLine(s)));
    if (e.type === "message") {
      const m = e.message;
      if (m.role === "user") {
        const skill = skillOf(textOf(m.content));
        if (skill) {
          const words = skill.rest ? ` · <span class="tree-role-user">user:</span> ${short(skill.rest)}` : "";
          return `${label}<span class="tree-role-skill">skill:</span> ${esc(skill.name)}${words}`;
        }
        return `${label}<span class="tree-role-user">user:</span> ${short(textOf(m.content))}`;
      }
      if (m.role === "assistant") {
        const t = oneLine(textOf(m.content));
        if (t) return `${label}<span class="tree-role-assistant">assistant:</span> ${short(t)}`;
        if (m.stopReason === "aborted") {
          return `${label}<span class="tree-role-assistant">assistant:</span> <span class="tree-muted">(aborted)</span>`;
        }
        if (m.errorMessage) {
          return `${label}<span class="tree-role-assistant">assistant:</span> <span class="tree-error">${
            short(m.errorMessage)
          }</span>`;
        }
        return `${label}<span class="tree-role-assistant">assistant:</span> <span class="tree-muted">(no text)</span>`;
      }
      if (m.role === "toolResult") {
        const call = callById.get(m.toolCallId);
        const args = call ? call.arguments || {} : {};
        const what = call
          ? `[${call.name}: ${oneLine(args.command || args.path || args.pattern || "")}]`
          : `[${m.toolName || "tool"}]`;
        return `${label}<span class="tree-role-tool">${short(what)}</span>`;
      }
      if (m.role === "bashExecution") {
        return `${label}<span class="tree-role-tool">[bash]:</span> ${short(m.command)}`;
      }
      if (m.role === "system") {
        if (startsSystemPrompt(e)) return `${label}<span class="tree-muted">[system prompt]</span>`;
        const what = systemChanges(m);
        return `${label}<span class="tree-muted">[system update${what ? ": " + short(what) : ""}]</span>`;
      }
      return `${label}<span class="tree-muted">[${esc(m.role)}]</span>`;
    }
    switch (e.type) {
      case "compaction":
        return `${label}<span class="tree-compaction">[compaction: ${
          Math.round((e.tokensBefore || 0) / 1000)
        }k tokens]</span>`;
      case "branch_summary":
        return `${label}<span class="tree-branch-summary">[branch summary]:</span> ${short(e.summary)}`;
      case "custom_message":
        return `${label}<span class="tree-custom">[${esc(e.customType)}]:</span> ${
          short(typeof e.content === "string" ? e.content : textOf(e.content))
        }`;
      case "model_change":
        return `${label}<span class="tree-muted">[model: ${esc(e.modelId)}]</span>`;
      case "thinking_level_change":
        return `${label}<span class="tree-muted">[thinking: ${esc(e.thinkingLevel)}]</span>`;
      default:
        return `${label}<span class="tree-muted">[${esc(e.type)}]</span>`;
    }
  }

  function searchText(e) {
    const parts = [labels.get(e.id) || "", e.type];
    if (e.type === "message") {
      const m = e.message;
      parts.push(m.role, textOf(m.content), m.command || "", m.output || "", m.summary || "");
      if (Array.isArray(m.content)) {
        for (const b of m.content) {
          if (b.type === "toolCall") parts.push(b.name, JSON.stringify(b.arguments || {}));
          if (b.type === "thinking") parts.push(b.thinking || "");
        }
      }
    } else {parts.push(
        e.summary || "",
        e.customType || "",
        typeof e.content === "string" ? e.content : textOf(e.content),
        e.modelId || "",
      );}
    return parts.join(" ").toLowerCase();
  }

  const SETTINGS_TYPES = new Set([
    "label",
    "custom",
    "context_edit",
    "model_change",
    "thinking_level_change",
    "session_info",
  ]);
  let filter = "default";
  let query = "";

  function visible(e) {
    if (e.id === leafId) return true;
    const m = e.type === "message" ? e.message : null;
    if (
      m && m.role === "assistant" && !textOf(m.content).trim() &&
      (m.stopReason === "stop" || m.stopReason === "toolUse" || !m.stopReason)
    ) return false;
    let pass;
    switch (filter) {
      case "user-only":
        pass = !!m && m.role === "user";
        break;
      case "no-tools":
        pass = !SETTINGS_TYPES.has(e.type) && !(m && m.role === "toolResult");
        break;
      case "labeled-only":
        pass = labels.has(e.id);
        break;
      case "all":
        pass = true;
        break;
      default:
        pass = !SETTINGS_TYPES.has(e.type);
    }
    if (!pass) return false;
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return true;
    const hay = searchText(e);
    return words.every((w) => hay.includes(w));
  }

  // Depth-first over the tree; hidden nodes pass their place to their children,
  // and a node only indents where its parent branches.
  function treeRows() {
    const onPath = new Set(pathTo(leafId).map((e) => e.id));
    // The branch being shown is listed first under each fork, as the terminal's tree does.
    const ordered = (nodes) => [...nodes].sort((a, b) => Number(onPath.has(b.id)) - Number(onPath.has(a.id)));
    const rows = [];
    const walk = (unordered, prefix) => {
      const nodes = ordered(unordered);
      nodes.forEach((e, i) => {
        const kids = childrenOf.get(e.id) || [];
        const show = visible(e);
        const branching = nodes.length > 1;
        const connector = branching ? (i === nodes.length - 1 ? "└─ " : "├─ ") : "";
        if (show) rows.push({ e, prefix: prefix + connector, onPath: onPath.has(e.id) });
        const nextPrefix = branching ? prefix + (i === nodes.length - 1 ? "   " : "│  ") : prefix;
        walk(kids, nextPrefix);
      });
    };
    walk(roots, "");
    return rows;
  }

  function renderTree() {
    const container = document.getElementById("tree-container");
    const rows = treeRows();
    container.innerHTML = rows.map((r) =>
      `<div class="tree-node ${r.onPath ? "in-path" : "off-path"}${r.e.id === shownTarget ? " active" : ""}${
        r.e.id === leafId ? " leaf" : ""
      }" data-id="${esc(r.e.id)}"><span class="tree-prefix">${
        esc(r.prefix)
      }</span><span class="tree-marker">${r.onPath ? "•" : " "}</span>${treeText(r.e)}</div>`
    ).join("");
    document.getElementById("tree-status").textContent = `${rows.length} / ${entries.length} entries`;
  }

  // ---- header ----------------------------------------------------------------------------
  function statsHtml() {
    const s = {
      custom: 0,
      compactions: 0,
      summaries: 0,
      user: 0,
      assistant: 0,
      tools: 0,
      calls: 0,
      input: 0,
      output: 0,
      read: 0,
      write: 0,
      cost: 0,
      models: new Set(),
    };
    for (const e of entries) {
      if (e.type === "custom_message") s.custom++;
      if (e.type === "compaction") s.compactions++;
      if (e.type === "branch_summary") s.summaries++;
      if (e.type !== "message") continue;
      const m = e.message;
      if (m.role === "user") s.user++;
      if (m.role === "toolResult") s.tools++;
      if (m.role === "assistant") {
        s.assistant++;
        if (m.model) s.models.add(m.provider ? `${m.provider}/${m.model}` : m.model);
        if (Array.isArray(m.content)) s.calls += m.content.filter((b) => b.type === "toolCall").length;
        const u = m.usage || {};
        s.input += u.input || 0;
        s.output += u.output || 0;
        s.read += u.cacheRead || 0;
        s.write += u.cacheWrite || 0;
        s.cost += (u.cost && u.cost.total) || 0;
      }
    }
    const msgs = [
      s.user && `${s.user} user`,
      s.assistant && `${s.assistant} assistant`,
      s.tools && `${s.tools} tool results`,
      s.custom && `${s.custom} custom`,
      s.compactions && `${s.compactions} compactions`,
      s.summaries && `${s.summaries} branch summaries`,
    ].filter(Boolean).join(", ") || "0";
    const toks = [
      s.input && `↑${fmtTokens(s.input)}`,
      s.output && `↓${fmtTokens(s.output)}`,
      s.read && `R${fmtTokens(s.read)}`,
      s.write && `W${fmtTokens(s.write)}`,
    ].filter(Boolean).join(" ") || "0";
    const item = (k, v) =>
      `<div class="info-item"><span class="info-label">${k}:</span><span class="info-value">${
        esc(v)
      }</span></div>`;
    let html = `<div class="header"><h1>Session: ${esc(header && header.id ? header.id : "unknown")}</h1>
      <div class="help-bar"><span class="help-hint">T toggle thinking · O toggle tools · H toggle hidden messages</span>
      <div class="help-actions">
        <button type="button" class="header-toggle-btn" data-action="toggle-thinking" aria-pressed="${!document
      .body.classList.contains("thinking-hidden")}">Toggle thinking</button>
        <button type="button" class="header-toggle-btn" data-action="toggle-tools" aria-pressed="${
      document.body.classList.contains("tools-expanded")
    }">Toggle tools</button>
        <button type="button" class="header-toggle-btn" data-action="toggle-hidden-messages" aria-pressed="${
      document.body.classList.contains("show-hidden")
    }">Show hidden messages</button>
        <button type="button" class="download-json-btn" data-action="download-jsonl" title="Download session as JSONL">↓ JSONL</button>
      </div></div>
      <div class="header-info">${
      item("Date", header && header.timestamp ? new Date(header.timestamp).toLocaleString() : "unknown")
    }${item("Models", [...s.models].join(", ") || "unknown")}${item("Messages", msgs)}${
      item("Tool Calls", String(s.calls))
    }${item("Tokens", toks)}${item("Cost", "$" + s.cost.toFixed(3))}</div></div>`;
    // Sessions with system entries show the prompt where it occurs; older ones show the
    // exporting agent's prompt and tools here.
    if (!hasSystemEntries) {
      if (data.systemPrompt) html += promptBlock("System Prompt", data.systemPrompt);
      html += toolsBlock("Available Tools", data.tools);
    }
    return html;
  }

  // ---- showing a branch -------------------------------------------------------------------
  let shownTarget = null;

  function linkFor(entryId) {
    const url = new URL(globalThis.location.href);
    url.search = "";
    url.hash = "";
    url.searchParams.set("leafId", leafId);
    url.searchParams.set("targetId", entryId);
    return url.toString();
  }

  function show(newLeafId, targetId) {
    leafId = newLeafId;
    shownTarget = targetId || null;
    document.getElementById("header-container").innerHTML = statsHtml();
    const html = pathTo(leafId).map((e) => {
      const body = entryBody(e);
      if (!body) return "";
      return `<div class="entry${e.id === shownTarget ? " target" : ""}" id="entry-${
        esc(e.id)
      }" data-entry-id="${
        esc(e.id)
      }"><button type="button" class="copy-link-btn" title="Copy link to this message">🔗</button>${body}</div>`;
    }).join("");
    document.getElementById("messages").innerHTML = html;
    renderTree();
    const target = shownTarget
      ? document.querySelector(`[data-entry-id="${CSS.escape(shownTarget)}"]`)
      : null;
    if (target) target.scrollIntoView({ block: "start" });
    else if (!targetId) {
      document.getElementById("content").scrollTop = document.getElementById("content").scrollHeight;
    }
  }

  // ---- events ----------------------------------------------------------------------------
  document.getElementById("tree-container").addEventListener("click", (ev) => {
    const node = ev.target.closest(".tree-node");
    if (!node) return;
    const id = node.dataset.id;
    // A node on the shown path keeps the branch; another one switches to its newest branch.
    const onPath = pathTo(leafId).some((e) => e.id === id);
    show(onPath ? leafId : newestLeafUnder(id), id);
    closeSidebar();
  });
  document.getElementById("tree-search").addEventListener("input", (ev) => {
    query = ev.target.value;
    renderTree();
  });
  for (const button of document.querySelectorAll(".filter-btn")) {
    button.addEventListener("click", () => {
      filter = button.dataset.filter;
      for (const b of document.querySelectorAll(".filter-btn")) b.classList.toggle("active", b === button);
      renderTree();
    });
  }

  const toggles = {
    "toggle-thinking": () => document.body.classList.toggle("thinking-hidden"),
    "toggle-tools": () => document.body.classList.toggle("tools-expanded"),
    "toggle-hidden-messages": () => document.body.classList.toggle("show-hidden"),
    "download-jsonl": downloadJsonl,
  };
  document.getElementById("content").addEventListener("click", (ev) => {
    const el = ev.target;
    const action = el.closest("[data-action]");
    if (action && toggles[action.dataset.action]) {
      toggles[action.dataset.action]();
      if (action.hasAttribute("aria-pressed")) {
        action.setAttribute("aria-pressed", String(action.getAttribute("aria-pressed") !== "true"));
      }
      return;
    }
    const folded = el.closest(".system-prompt.expandable, .tool-item.has-params, .skill-invocation");
    if (folded && !String(globalThis.getSelection())) {
      folded.classList.toggle(folded.classList.contains("tool-item") ? "params-expanded" : "expanded");
      return;
    }
    if (el.classList.contains("expand-btn")) el.closest(".tool-output").classList.add("expanded");
    else if (el.classList.contains("thinking-collapsed")) document.body.classList.remove("thinking-hidden");
    else if (el.classList.contains("copy-link-btn")) {
      const link = linkFor(el.closest(".entry").dataset.entryId);
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
      el.textContent = "✓";
      setTimeout(() => (el.textContent = "🔗"), 1200);
    } else if (el.classList.contains("message-image")) {
      document.getElementById("modal-image").src = el.src;
      document.getElementById("image-modal").classList.add("open");
    }
  });
  document.getElementById("image-modal").addEventListener("click", () => {
    document.getElementById("image-modal").classList.remove("open");
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      // Closes the image; otherwise clears the search and goes back to the leaf the page opened on.
      const modal = document.getElementById("image-modal");
      if (modal.classList.contains("open")) modal.classList.remove("open");
      else {
        document.getElementById("tree-search").value = "";
        query = "";
        if (openingLeaf) show(openingLeaf, null);
        else renderTree();
      }
      return;
    }
    if (ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key === "t") toggles["toggle-thinking"]();
    else if (key === "o") toggles["toggle-tools"]();
    else if (key === "h") toggles["toggle-hidden-messages"]();
    else return;
    document.getElementById("header-container").innerHTML = statsHtml();
  });

  function downloadJsonl() {
    const lines = [header, ...entries].filter(Boolean).map((x) => JSON.stringify(x));
    const blob = new Blob([lines.join("\n") + "\n"], { type: "application/x-ndjson" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${header && header.id ? header.id : "session"}.jsonl`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  const sidebar = document.getElementById("sidebar");
  const overlay = document.getElementById("sidebar-overlay");
  function closeSidebar() {
    sidebar.classList.remove("open");
    overlay.classList.remove("open");
  }
  document.getElementById("hamburger").addEventListener("click", () => {
    sidebar.classList.add("open");
    overlay.classList.add("open");
  });
  overlay.addEventListener("click", closeSidebar);
  document.getElementById("sidebar-close").addEventListener("click", closeSidebar);

  // Dragging the separator resizes the tree; double-click restores the default width.
  const resizer = document.getElementById("sidebar-resizer");
  resizer.addEventListener("pointerdown", (down) => {
    down.preventDefault();
    const startX = down.clientX;
    const startWidth = sidebar.getBoundingClientRect().width;
    const move = (ev) => {
      const width = Math.min(840, Math.max(240, startWidth + ev.clientX - startX));
      document.documentElement.style.setProperty("--sidebar-width", `${width}px`);
    };
    const up = () => {
      globalThis.removeEventListener("pointermove", move);
      globalThis.removeEventListener("pointerup", up);
    };
    globalThis.addEventListener("pointermove", move);
    globalThis.addEventListener("pointerup", up);
  });
  resizer.addEventListener(
    "dblclick",
    () => document.documentElement.style.removeProperty("--sidebar-width"),
  );

  if (leafId) show(leafId, linkTarget);
  else {
    document.getElementById("header-container").innerHTML = statsHtml();
    renderTree();
  }
})();
