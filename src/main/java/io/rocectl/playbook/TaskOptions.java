package io.rocectl.playbook;

/**
 * Where and how a task runs, beyond its module: Ansible's {@code connection}, {@code delegate_to},
 * {@code delegate_facts}, {@code check_mode}, {@code diff}, {@code throttle} and {@code timeout}
 * keywords. Set on a play, a block or a task; the innermost setting wins ({@link #under}). A null
 * (or 0) field is "not set".
 *
 * @param connection   {@code local} or {@code ssh}, null: the host's {@code ansible_connection}, else ssh
 * @param delegateTo   a host name (may be a template), null: the task's own host
 * @param checkMode    true/false overrides {@code -C} for the task, null follows it
 * @param diff         true/false overrides {@code -D} for the task, null follows it
 * @param throttle     at most this many hosts run the task at once (0: forks)
 * @param timeout      seconds the task action may take (0: no limit but the command timeout)
 */
public record TaskOptions(String connection, Object delegateTo, Boolean delegateFacts, Boolean checkMode,
                          Boolean diff, int throttle, int timeout) {

    public static final TaskOptions NONE = new TaskOptions(null, null, null, null, null, 0, 0);

    /** No option set (equal to {@link #NONE}), checked field by field. */
    public boolean isNone() {
        return connection == null && delegateTo == null && delegateFacts == null && checkMode == null && diff == null
                && throttle == 0 && timeout == 0;
    }

    /** These options inside {@code outer} (a block's or play's): what this one leaves unset comes from there. */
    public TaskOptions under(TaskOptions outer) {
        return new TaskOptions(connection != null ? connection : outer.connection,
                delegateTo != null ? delegateTo : outer.delegateTo,
                delegateFacts != null ? delegateFacts : outer.delegateFacts,
                checkMode != null ? checkMode : outer.checkMode,
                diff != null ? diff : outer.diff,
                throttle != 0 ? throttle : outer.throttle,
                timeout != 0 ? timeout : outer.timeout);
    }

    public boolean delegates() {
        return delegateTo != null;
    }
}
