/**
 * The core modules users know from Ansible's builtin collection: {@code command}, {@code shell},
 * {@code ping}, {@code lineinfile}, {@code blockinfile}, {@code replace}, {@code copy},
 * {@code template}, {@code file}, {@code stat}, {@code service}/{@code systemd}, {@code set_fact},
 * {@code debug}, {@code assert}, {@code fail} and {@code wait_for}.
 *
 * <p>Each module separates a pure plan (host state as captured text plus arguments in, decision
 * out: {@link io.rocectl.builtin.core.LineInFilePlan}, {@link io.rocectl.builtin.core.FilePlan},
 * {@link io.rocectl.builtin.core.ServicePlan}, ...) from the few commands that read or change the
 * host. Every value that comes from a playbook, inventory or fact reaches the host as an argv
 * element or a positional parameter of a fixed script, never as shell syntax; the one exception is
 * {@code shell}, whose whole point is a user-written script.
 */
package io.rocectl.builtin.core;
