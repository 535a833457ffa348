package io.rocectl.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads back a state file rocectl wrote earlier (a health sample, the remediation history) so that
 * no damage to it can crash or wedge a run: a missing file is no state; a symlink, a directory or
 * another non-regular file, a file over the size bound, invalid UTF-8 or an I/O error is no state
 * <em>plus a warning naming the file</em>. The caller starts over and its next atomic write
 * replaces the damaged file. Never follows a symlink at the last component.
 *
 * @param text    the content, or null for none (missing or damaged)
 * @param warning why the file was not used (naming it), or null when it was used or simply missing
 */
public record StateRead(String text, String warning) {
    /** Nothing there: a first run. */
    static final StateRead NONE = new StateRead(null, null);

    /** The file's content, or no state with a warning; {@code maxBytes} bounds what is read. */
    public static StateRead whole(Path file, long maxBytes) {
        return read(file, maxBytes, false);
    }

    /**
     * The last {@code maxBytes} of the file (for append-only logs: the newest lines), invalid UTF-8
     * replaced rather than refused (a damaged line is then skipped by the caller's parser); a warning
     * says what was dropped or replaced. The first line of a cut file is dropped (it is partial).
     */
    public static StateRead tail(Path file, long maxBytes) {
        return read(file, maxBytes, true);
    }

    private static StateRead read(Path file, long maxBytes, boolean tail) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return NONE;
        } catch (IOException e) {
            return damaged(file, "cannot be read (" + e.getMessage() + ")");
        }
        if (a.isSymbolicLink()) return damaged(file, "is a symlink (never followed)");
        if (a.isDirectory()) return damaged(file, "is a directory, not a file");
        if (!a.isRegularFile()) return damaged(file, "is not a regular file");
        if (!tail && a.size() > maxBytes) {
            return damaged(file, "is " + a.size() + " bytes, over the bound of " + maxBytes + " for this file");
        }
        byte[] bytes;
        boolean cut = false;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            long from = tail && size > maxBytes ? size - maxBytes : 0;
            cut = from > 0;
            ch.position(from);
            try (InputStream in = Channels.newInputStream(ch)) {
                // bounded even when the file grows while it is read
                bytes = in.readNBytes((int) Math.min(maxBytes, Integer.MAX_VALUE - 8));
            }
        } catch (IOException e) {
            return damaged(file, "cannot be read (" + e.getMessage() + ")");
        }
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            if (!cut) return new StateRead(s, null);
            int nl = s.indexOf('\n');
            return new StateRead(nl < 0 ? "" : s.substring(nl + 1),
                    warningFor(file, "is over " + maxBytes + " bytes; only its newest lines were read"));
        } catch (CharacterCodingException e) {
            if (!tail) return damaged(file, "is not valid UTF-8 (a torn write or disk damage)");
            String s = new String(bytes, StandardCharsets.UTF_8);
            if (cut) {
                int nl = s.indexOf('\n');
                s = nl < 0 ? "" : s.substring(nl + 1);
            }
            return new StateRead(s, warningFor(file, "holds invalid UTF-8 (a torn write or disk damage); the lines"
                    + " it damaged are skipped"));
        }
    }

    private static StateRead damaged(Path file, String why) {
        return new StateRead(null, warningFor(file, why + "; starting over without it"));
    }

    private static String warningFor(Path file, String why) {
        return "state file " + file + " " + why;
    }
}
