package io.rocectl.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

/** Ansible's {@code free}: each host runs through the play on its own fork, as fast as it can. */
final class FreeStrategy implements Strategy {
    @Override
    public void run(PlayRun play, PlayIterator it) throws InterruptedException {
        List<Future<Object>> fs = new ArrayList<>();
        for (String h : it.live()) {
            fs.add(play.submit(() -> {
                Program.Slot s;
                while (!play.cancelled() && (s = it.peek(h)) != null) play.step(it, s, List.of(h));
                return null;
            }));
        }
        play.await(fs);
    }
}
