package io.rocectl.playbook;

import java.util.Set;

/** One entry of a task list: a {@link Task} or a {@link Block} of them. */
public sealed interface Step permits Task, Block {
    /** Own tags plus those inherited from enclosing blocks and the play. */
    Set<String> tags();

    Mark mark();

    String displayName();
}
