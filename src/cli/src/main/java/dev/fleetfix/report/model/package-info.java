/**
 * The fleet report as {@code report.json} stores it (schema version {@value
 * dev.fleetfix.report.model.FleetReport#SCHEMA_VERSION}). Field names are written in snake_case
 * ({@code schema_version}, {@code elapsed_ms}) and are stable: a field is added, never renamed,
 * within one schema version. Times are ISO-8601 instants, durations whole milliseconds, latencies
 * milliseconds. Absent values are {@code null} (e.g. a percentile the source did not report).
 *
 * <p>Where it is written: {@code apply --report DIR} writes it as {@code DIR/report.json}; {@code apply --format
 * json} (or Ansible's {@code stdout_callback = json}) prints the same document, and only it, on standard output
 * when the run ends, the progress and recap going to standard error. {@code apply --list-hosts --format json}
 * prints a {@link dev.fleetfix.report.model.HostListReport} instead: {@code schema_version} and {@code plays[]},
 * each with its {@code name}, {@code pattern} and {@code hosts} (host names, in inventory order).
 *
 * <p>The root, {@link dev.fleetfix.report.model.FleetReport}: {@code schema_version}; {@code run} ({@code id},
 * {@code playbook}, {@code check}, {@code diff}, {@code forks}, {@code started_at}, {@code ended_at}, {@code
 * elapsed_ms}, {@code outcome}: {@code ok}, {@code hosts_failed}, {@code halted}, {@code window_closed} or {@code
 * refused_outside_window}, {@code reason}, and the host names {@code done}, {@code failed}, {@code untouched},
 * {@code changed}, {@code playbook_sha256}, {@code fleetfix_version}); {@code plays[]} with their batches and how they ended; {@code hosts[]} in inventory order, each
 * with its steps ({@code status}, {@code message}, {@code changes}, {@code diffs}, {@code elapsed_ms}), facts,
 * gates and outcome; and {@code benchmarks} (below). Each record's Javadoc names its fields.
 *
 * <p>Benchmarks: each round's tests carry their {@code windows} (the samples of the before/after
 * statistics), {@code client_cpu}, and {@code errors}, the error replies among the requests measured
 * (OOM at {@code maxmemory}, READONLY, ...; counted in {@code rps}): a round with any enters no
 * verdict, its comparison's figures are not {@code decisive} and its first note says it was withheld. Each {@code
 * comparisons[]} entry names its {@code design} and {@code notes}, and its {@code verdict}: {@code improved}, {@code
 * regressed}, {@code no_change_detected} or {@code inconclusive}, the last always with its {@code reason}
 * (docs/benchmarks-and-verdicts.md, {@code fleetfix doc verdicts}; schema version 1 wrote {@code within_noise}
 * instead of the last two, and a {@code within_noise} host count in {@code fleet[]}, now {@code
 * no_change_detected} and {@code inconclusive} with the fleet's {@code reason}); each of its {@code metrics[]} carries the change as {@code ratio} with its 95 %
 * bootstrap interval {@code low}/{@code high}, the test's {@code p} and Holm-{@code adjusted_p},
 * the effect {@code floor}, and whether the figure is {@code decisive} (else {@code not_decisive}
 * says why), and {@code before_sample_median}/{@code after_sample_median}, the two figures the
 * ratio is over (show these beside the change, not the rounds' {@code before_median}). The last
 * round of each benchmark step carries Redis's own figures: {@code redis_evidence} (fork and
 * copy-on-write counters, fragmentation, the latency monitor's threshold), {@code
 * redis_anon_huge_pages_kb}, {@code redis_latency_latest}, {@code redis_fork_history}, and {@code
 * redis_unread} naming what could not be read and why. A control round ({@code control_before},
 * {@code control_after}) names the changed host in {@code control_for}. {@code fleet[].effects}
 * holds, per figure, the hosts' ratios taken together, from 3 hosts on (empty below, where {@code fleet[].reason}
 * says "too few hosts for a fleet interval"). A sweep (value sizes, TCP_NODELAY) marks
 * each of its rounds with its {@code point}, lists the medians per point in {@code sweep} and each
 * point against its neighbour in {@code sweep_comparisons}. Readers of older files get empty lists
 * and nulls for these fields.
 */
package dev.fleetfix.report.model;
