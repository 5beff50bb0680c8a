/* bench_shell_policies.c — the four shell policies (blast_radius, github_policy,
 * block_working_dir_changes, worktree_guard) on 10,000 realistic commands, side by side with
 * the parser alone.
 *
 * Usage: bench_shell_policies [ROUNDS]   (default 7)
 *
 * Events are parsed once, up front; what is timed is what the engine does per policy per shell
 * call: evaluate() into an arena that is then reset (each policy parses the command itself).
 * Each command is timed on its own (CLOCK_MONOTONIC), its time is the fastest of ROUNDS rounds,
 * and the figure printed is the median over the commands. A policy that is not registered is
 * skipped and named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "engine/event.h"
#include "engine/policy.h"
#include "policies/registry.h"
#include "shell/shell.h"

#define N_COMMANDS 10000

/* Templates of what coding agents run; %d varies file names and numbers. */
static const char *const templates[] = {
    "git status",
    "git status --porcelain && npm test -- --watch=false",
    "git diff --stat HEAD~%d",
    "git log --oneline -%d",
    "git add -A && git commit -m \"fix: handle case %d\"",
    "git push origin feature/task-%d",
    "git fetch origin && git rebase origin/main",
    "git checkout -b feature/x%d",
    "npm test",
    "npm run build 2>&1 | tail -%d",
    "pytest tests/test_mod%d.py -q",
    "python3 -m pytest -x -k 'not slow'",
    "cargo build --release",
    "cargo test -- --nocapture",
    "go test ./pkg/%d/...",
    "make -j%d && ./build/app --version",
    "ls -la src/",
    "cat src/module%d.py",
    "grep -rn \"TODO\" src/ | head -%d",
    "rg -n 'fn main' --type rust",
    "find . -name '*.py' -not -path './.venv/*' | xargs wc -l",
    "sed -n '%d,40p' src/main.c",
    "sed -i 's/old_name/new_name/g' src/file%d.ts",
    "echo \"done %d\" > status.txt",
    "mkdir -p build/out%d && cp dist/*.js build/out%d/",
    "rm -rf build/tmp%d",
    "rm -f stale%d.log",
    "cd src && ls",
    "docker compose up -d && docker compose logs --tail=%d web",
    "kubectl get pods -n team%d",
    "curl -s https://api.example.com/items/%d | jq '.name'",
    "gh pr view %d --json title,body",
    "gh pr create --fill --base main",
    "for f in src/*.c; do clang-format -i \"$f\"; done",
    "if [ -f package.json ]; then npm ci; fi",
    "export NODE_ENV=test; npm run test:unit -- --coverage",
    "bash -c 'cd web && npm run lint'",
    "timeout 60 ./scripts/run_integration.sh %d",
    "cat <<'EOF' > notes%d.md\n# Notes\nrm -rf / is data here\nEOF",
    "python3 - <<'PY'\nprint(%d)\nPY",
    "git worktree list",
    "tail -n %d logs/app.log | grep -i error",
    "echo $(date +%%s) >> timings.log",
    "sudo apt-get install -y jq",
    "tar czf dist%d.tgz dist/",
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Params with every default filled, as the config validator hands them to create(). */
static rp_json *default_params(rp_arena *a, const rp_policy_type *t)
{
    rp_json_error err;
    rp_json *params = rp_json_parse(a, "{}", 2, &err);
    for (size_t i = 0; i < t->n_params; i++) {
        const char *d = t->params[i].default_json;
        if (d == NULL)
            continue;
        rp_json *v = rp_json_parse(a, d, strlen(d), &err);
        if (v != NULL)
            rp_json_object_set(a, params, t->params[i].name, *v);
    }
    return params;
}

typedef struct bench_policy {
    const rp_policy_type *type;
    void *instance;
} bench_policy;

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 7;
    if (rounds <= 0) {
        fprintf(stderr, "usage: bench_shell_policies [ROUNDS]\n");
        return 2;
    }
    static const char *const names[] = {"blast_radius", "github_policy",
                                        "block_working_dir_changes", "worktree_guard"};
    rp_arena keep = {0};
    bench_policy policies[4];
    size_t n_policies = 0;
    for (size_t i = 0; i < 4; i++) {
        const rp_policy_type *t = rp_registry_find(names[i]);
        rp_param_error perr;
        void *inst = NULL;
        if (t == NULL || t->create(default_params(&keep, t), &keep, &inst, &perr) != 0) {
            printf("skipped: %s (%s)\n", names[i], t ? perr.message : "not registered");
            continue;
        }
        policies[n_policies++] = (bench_policy){t, inst};
    }

    /* The events, parsed once. */
    static char *commands[N_COMMANDS];
    static rp_event events[N_COMMANDS];
    size_t n_templates = sizeof templates / sizeof templates[0];
    size_t total_bytes = 0;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        char cmd[512];
        int k = (int)(i / n_templates) % 97;
        snprintf(cmd, sizeof cmd, templates[i % n_templates], k, k);
        commands[i] = rp_arena_strdup(&keep, cmd);
        total_bytes += strlen(cmd);
        rp_buf b = {0};
        rp_buf_puts(&b, "{\"type\":\"tool_call\",\"data\":{\"name\":\"Bash\",\"arguments\":"
                        "{\"command\":");
        rp_json_write_string(&b, cmd, strlen(cmd));
        rp_buf_puts(&b, "}},\"context\":{\"cwd\":\"/home/alice/src/.worktrees/t1\","
                        "\"home\":\"/home/alice\"}}");
        rp_json_error err;
        rp_json *root = rp_json_parse(&keep, b.data, b.len, &err);
        rp_buf_free(&b);
        if (root == NULL || !rp_event_from_json(root, &events[i])) {
            fprintf(stderr, "bench_shell_policies: event %zu does not parse\n", i);
            return 1;
        }
    }

    static const rp_json empty = {.type = RP_JSON_OBJECT};
    rp_arena arena;
    rp_arena_init(&arena, 64 * 1024);
    static double best[N_COMMANDS];
    double results[6];
    const char *labels[6];
    size_t n_results = 0;
    size_t verdicts[4] = {0};

    /* Column 0: the parser alone; 1..n: each policy; last: all of them together. */
    for (size_t col = 0; col <= n_policies + 1; col++) {
        if (col == n_policies + 1 && n_policies == 0)
            break;
        for (size_t i = 0; i < N_COMMANDS; i++)
            best[i] = 1e300;
        for (int r = 0; r < rounds; r++) {
            for (size_t i = 0; i < N_COMMANDS; i++) {
                rp_eval_ctx ctx = {.arena = &arena, .config = &empty};
                double t0 = now_ns();
                if (col == 0) {
                    struct rp_sh_parse p;
                    rp_sh_parse(&arena, commands[i], strlen(commands[i]), &p);
                } else {
                    size_t from = col <= n_policies ? col - 1 : 0;
                    size_t to = col <= n_policies ? col : n_policies;
                    for (size_t k = from; k < to; k++) {
                        rp_result res = {.verdict = RP_ABSTAIN};
                        ctx.policy_name = policies[k].type->name;
                        policies[k].type->evaluate(policies[k].instance, &events[i], &empty, &ctx,
                                                   &res);
                        if (r == 0 && col == n_policies + 1)
                            verdicts[res.verdict]++;
                    }
                }
                double dt = now_ns() - t0;
                if (dt < best[i])
                    best[i] = dt;
                rp_arena_reset(&arena);
            }
        }
        labels[n_results] = col == 0            ? "parser alone (rp_sh_parse)"
                            : col <= n_policies ? policies[col - 1].type->name
                                                : "all shell policies together";
        results[n_results++] = median(best, N_COMMANDS);
    }

    printf("%d commands (%zu templates, mean %.0f bytes), best of %d rounds each, median:\n",
           N_COMMANDS, n_templates, (double)total_bytes / N_COMMANDS, rounds);
    for (size_t i = 0; i < n_results; i++)
        printf("  %-32s %8.3f us\n", labels[i], results[i] / 1000.0);
    printf("verdicts of the policies together: allow %zu, ask %zu, deny %zu, abstain %zu\n",
           verdicts[RP_ALLOW], verdicts[RP_ASK], verdicts[RP_DENY], verdicts[RP_ABSTAIN]);
    rp_arena_free(&arena);
    rp_arena_free(&keep);
    return 0;
}
