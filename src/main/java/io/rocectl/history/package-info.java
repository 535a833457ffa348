/**
 * The remediation history, in one place: its records, one JSON object per line
 * ({@link io.rocectl.history.RemediationHistory}: build, parse, count fixes per host in a window),
 * and the file and syslog I/O ({@link io.rocectl.history.HistoryLog}: append with rotation, read
 * both generations with damaged ones reported, log through {@code logger}). What a run writes is
 * decided by the command ({@code cli.RemediationTrail}).
 */
package io.rocectl.history;
