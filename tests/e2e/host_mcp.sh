#!/usr/bin/env bash
# host_mcp.sh — MCP tools reach the policies under the one MCP name they know,
# mcp__<server>__<tool>, whatever the host calls them: Gemini CLI `mcp_<server>_<tool>` (with
# mcp_context, the recorded shape of ../shared/hosts-recorded/gemini.jsonl), opencode
# `<server>_<tool>` (the plugin sends `mcp`), Claude Code and Codex `mcp__<server>__<tool>`.
# github_policy denies a pull request outside write_repos; the permissions `mcp` surface
# matches the calls.
set -u
. "$(dirname "$0")/lib.sh"
e2e_init host_mcp "$1" "$2"
export RAMPART_NOW=2026-12-01T10:00:00Z USER=e2e-user
cat >"$TMP/github.yaml" <<'YAML'
policies:
  github:
    type: function
    handler: omnigent.policies.builtins.github.github_policy
    factory_params: {write_repos: [acme/allowed]}
YAML
# A GitHub server under another name: only its MCP name tells github_policy what it is.
cat >"$TMP/gh.yaml" <<'YAML'
policies:
  github:
    type: function
    handler: omnigent.policies.builtins.github.github_policy
    factory_params: {write_repos: [acme/allowed], mcp_tool_prefixes: [mcp__gh__]}
YAML
cat >"$TMP/perm.yaml" <<'YAML'
policies:
  permissions:
    type: function
    handler: permissions
    factory_params:
      permission:
        "*": allow
        mcp: {"*": allow, "github_create_pull_request": {action: deny, reason: "no PRs from agents"}}
YAML

# expect CONFIG HOST JSON GREP DESCRIPTION
expect() {
    printf '%s' "$3" | "$BIN" hook "$2" -c "$TMP/$1" --state-dir "$TMP/state" \
        >"$TMP/out" 2>"$TMP/err"
    if grep -q -- "$4" "$TMP/out"; then pass "$5"; else fail "$5" "$(cat "$TMP/out" "$TMP/err")"; fi
}
mkdir -p "$TMP/state"

gemini() { # OWNER REPO [SERVER]
    local server=${3:-github}
    printf '{"session_id":"gm","transcript_path":"/t.jsonl","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-12-03T09:07:10.392Z","tool_name":"mcp_%s_create_pull_request","tool_input":{"owner":"%s","repo":"%s","title":"t","head":"a","base":"main"},"mcp_context":{"server_name":"%s","tool_name":"create_pull_request","command":"node","args":["/home/dev/mcp/github-mcp.mjs"]}}' "$server" "$1" "$2" "$server"
}
opencode() { # OWNER REPO [SERVER]
    local server=${3:-github}
    printf '{"event":"tool.execute.before","session_id":"oc","cwd":"/tmp","tool_name":"%s_create_pull_request","tool_call_id":"call_%s","input":{"owner":"%s","repo":"%s","title":"t","head":"a","base":"main"},"mcp":{"server":"%s","tool":"create_pull_request"}}' "$server" "$1" "$1" "$2" "$server"
}
claude() { # OWNER REPO
    printf '{"session_id":"cc","transcript_path":null,"cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"mcp__github__create_pull_request","tool_input":{"owner":"%s","repo":"%s","title":"t","head":"a","base":"main"},"tool_use_id":"toolu_%s"}' "$1" "$2" "$1"
}

expect github.yaml gemini "$(gemini evil-org x)" '"decision":"deny".*Write is restricted' \
    "gemini: a pull request outside write_repos is denied by github_policy"
expect github.yaml gemini "$(gemini acme allowed)" '^{}$' \
    "gemini: a pull request to acme/allowed goes ahead"
expect github.yaml opencode "$(opencode evil-org x)" '"result":"DENY".*Write is restricted' \
    "opencode: a pull request outside write_repos is denied by github_policy"
expect github.yaml opencode "$(opencode acme allowed)" '"result":"ALLOW"' \
    "opencode: a pull request to acme/allowed goes ahead"
expect gh.yaml gemini "$(gemini evil-org x gh)" '"decision":"deny".*Write is restricted' \
    "gemini: server gh, mcp_tool_prefixes [mcp__gh__]: denied by github_policy"
expect gh.yaml opencode "$(opencode evil-org x gh)" '"result":"DENY".*Write is restricted' \
    "opencode: server gh, mcp_tool_prefixes [mcp__gh__]: denied by github_policy"
expect github.yaml claude-code "$(claude evil-org x)" '"permissionDecision":"deny"' \
    "claude-code: a pull request outside write_repos is denied by github_policy"

expect perm.yaml gemini "$(gemini acme allowed)" '"decision":"deny".*no PRs from agents' \
    "gemini: the permissions mcp rule matches the call"
expect perm.yaml opencode "$(opencode acme allowed)" '"result":"DENY".*no PRs from agents' \
    "opencode: the permissions mcp rule matches the call"
expect perm.yaml claude-code "$(claude acme allowed)" '"permissionDecision":"deny".*no PRs from agents' \
    "claude-code: the permissions mcp rule matches the call"

e2e_finish
