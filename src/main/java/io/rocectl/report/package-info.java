/**
 * Probe reports: the {@link io.rocectl.report.ProbeReport} record tree (the stable JSON of
 * {@code rocectl probe --report} and {@code remediate --report}) and its renderers: JSON
 * ({@link io.rocectl.report.ReportJson}), the terminal summary with faults grouped by cause and
 * folded host sets ({@link io.rocectl.report.TextSummary}), the text heatmap
 * ({@link io.rocectl.report.Heatmap}), the self-contained HTML report with its banded matrix
 * ({@link io.rocectl.report.HtmlReport}) and Prometheus textfile metrics
 * ({@link io.rocectl.report.PromMetrics}). Renderers are pure: they return strings and never print.
 */
package io.rocectl.report;
