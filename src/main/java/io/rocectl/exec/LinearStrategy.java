package io.rocectl.exec;

/**
 * Ansible's default: all hosts in lockstep. Each round runs the task at the lowest position any
 * host is at, on every host at that position (hosts in a rescue part run it while the others
 * wait at the always part). Runs on the calling thread; only task bodies fan out to the forks.
 */
final class LinearStrategy implements Strategy {
    @Override
    public void run(PlayRun play, PlayIterator it) throws InterruptedException {
        while (!play.cancelled()) {
            int pc = it.lowest();
            if (pc < 0) return;
            play.step(it, it.program().slot(pc), it.at(pc));
        }
    }
}
