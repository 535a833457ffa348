package io.rocectl.module;

/**
 * A module that runs once per play on the control node, over every host of the play (like an
 * Ansible action plugin with {@code run_once}). Its result is reported for every play host,
 * except that a failed result whose data lists {@link #FAILED_HOSTS} fails only those hosts
 * (the others get the result as ok/changed): a failure is attributed to the hosts it implicates.
 */
public interface ControllerModule extends Module {
    /** Data key: the hosts a failed controller result implicates (absent or empty = every host). */
    String FAILED_HOSTS = "failed_hosts";
    /** Data key: true when the module had nothing to act on (reported as skipped, with its message). */
    String SKIPPED = "skipped";

    ModuleResult runOnController(Controller controller) throws InterruptedException;
}
