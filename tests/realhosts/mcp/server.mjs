// server.mjs — a tiny stdio MCP server for the real-host suite: JSON-RPC 2.0, one message per
// line on stdin/stdout. It offers one github-like tool, create_pull_request {owner, repo, title,
// head, base}, which appends the call (one JSON line) to $FAKE_MCP_LOG and returns a fake PR
// url: the log shows exactly which calls the host let through.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const logFile = process.env.FAKE_MCP_LOG;
const tool = {
  name: "create_pull_request",
  description: "Create a pull request in a GitHub repository.",
  inputSchema: {
    type: "object",
    properties: {
      owner: { type: "string", description: "Repository owner" },
      repo: { type: "string", description: "Repository name" },
      title: { type: "string", description: "Pull request title" },
      head: { type: "string", description: "Branch with the changes" },
      base: { type: "string", description: "Branch to merge into" },
    },
    required: ["owner", "repo", "title", "head", "base"],
  },
};
let prs = 0;

function send(msg) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");
}

function answer(req) {
  const p = req.params || {};
  switch (req.method) {
    case "initialize":
      return { result: { protocolVersion: p.protocolVersion || "2025-06-18", capabilities: { tools: {} },
                         serverInfo: { name: "fake-github", version: "1.0.0" } } };
    case "ping":
      return { result: {} };
    case "tools/list":
      return { result: { tools: [tool] } };
    case "tools/call": {
      if (p.name !== tool.name) return { error: { code: -32602, message: `unknown tool ${p.name}` } };
      const a = p.arguments || {};
      if (logFile) appendFileSync(logFile, JSON.stringify({ tool: p.name, arguments: a }) + "\n");
      const url = `https://github.com/${a.owner}/${a.repo}/pull/${++prs}`;
      return { result: { content: [{ type: "text", text: `Created pull request ${url}` }], isError: false } };
    }
    case "resources/list": return { result: { resources: [] } };
    case "prompts/list": return { result: { prompts: [] } };
    default:
      return { error: { code: -32601, message: `method not found: ${req.method}` } };
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  let req;
  try { req = JSON.parse(line); } catch { send({ id: null, error: { code: -32700, message: "parse error" } }); return; }
  if (req.id === undefined || req.id === null) return; // a notification
  send({ id: req.id, ...answer(req) });
}).on("close", () => process.exit(0));
