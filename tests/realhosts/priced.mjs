// priced.mjs — for the hosts that report their own cost (opencode, Pi): a provider the host
// cannot price comes with cost 0, and rampart must then price the tokens from its own table.
// The expected cost is computed from `rampart pricing --json MODEL` (the binary's own table,
// not a copy of it) and the token totals of `rampart spend --json`.

export function checkPriced(ctx, env, model, { what = `spend prices ${model} itself when the host says cost 0` } = {}) {
  const sp = ctx.rampartCli(env, ["spend", "--json"]);
  const pr = ctx.rampartCli(env, ["pricing", "--json", model]);
  let total = null, price = null;
  try { total = JSON.parse(sp.stdout).total; } catch { /* reported below */ }
  try { price = JSON.parse(pr.stdout).lookups[0].price; } catch { /* reported below */ }
  if (!total || !price) {
    return ctx.check(what, false, `rampart spend: ${sp.stdout.trim() || sp.stderr.trim()}\nrampart pricing: ${pr.stdout.trim() || pr.stderr.trim()}`);
  }
  // USD per 1M tokens -> nano-dollars per token: x * 1e3.
  const want = Math.round(1e3 * (total.input_tokens * price.input + total.output_tokens * price.output +
                                 total.cache_read_input_tokens * price.cache_read +
                                 total.cache_creation_input_tokens * price.cache_write));
  // One nano-dollar of rounding per record at most.
  const ok = total.records > 0 && total.cost_nusd > 0 && Math.abs(total.cost_nusd - want) <= total.records;
  return ctx.check(what, ok, `rampart spend: ${total.records} records, cost_nusd ${total.cost_nusd}; ` +
    `${model} at rampart's own prices: ${want} nusd (in ${total.input_tokens}, out ${total.output_tokens}, ` +
    `cache read ${total.cache_read_input_tokens}, cache write ${total.cache_creation_input_tokens})`);
}
