package io.rocectl.modules.core;

import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code stat}: what is at a path, registered as Ansible's {@code stat} result (changes nothing,
 * runs in check mode too). Arguments: path (dest, name), follow (default false), get_checksum
 * (default true), checksum_algorithm (sha1, the default, sha224, sha256, sha384, sha512, md5).
 * Keys: exists, path, mode, isdir, isreg, islnk, ischr, isblk, isfifo, issock, uid, gid, size,
 * inode, dev, nlink, atime, mtime, ctime, blocks, block_size, pw_name, gr_name, the permission
 * bits (rusr ... xoth, isuid, isgid), readable, writeable, executable, checksum (regular files),
 * lnk_source and lnk_target (links). Not reported: mime type, attributes, version.
 */
public final class StatModule implements Module {
    /** $1 path, $2 "1" to follow links, $3 digest program or "". NUL-separated fields, see {@link #parse}. */
    static final String SCRIPT = """
            p=$1
            if [ ! -e "$p" ] && { [ "$2" = 1 ] || [ ! -L "$p" ]; }; then printf 'absent\\0'; exit 0; fi
            if [ "$2" = 1 ]; then L=-L; else L=; fi
            st=$(stat $L -c '%F\t%a\t%u\t%g\t%s\t%.9Y\t%.9X\t%.9Z\t%i\t%h\t%d\t%U\t%G\t%b\t%B' -- "$p") || exit 2
            printf '%s\\0' "$st"
            if [ -n "$3" ] && [ -f "$p" ] && [ -r "$p" ] && { [ "$2" = 1 ] || [ ! -L "$p" ]; }; then
              s=$("$3" < "$p") || exit 2; printf '%s\\0' "${s%% *}"
            else printf '\\0'; fi
            a=; [ -r "$p" ] && a=${a}r; [ -w "$p" ] && a=${a}w; [ -x "$p" ] && a=${a}x; printf '%s\\0' "$a"
            if [ -L "$p" ]; then printf '%s\\0' "$(readlink -f -- "$p")" "$(readlink -- "$p")"; else printf '\\0\\0'; fi
            """;

    @Override
    public String name() {
        return "stat";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder()
                .req("path", ArgSpec.Type.STR).alias("dest", "path").alias("name", "path")
                .opt("follow", ArgSpec.Type.BOOL)
                .opt("get_checksum", ArgSpec.Type.BOOL)
                .opt("checksum_algorithm", ArgSpec.Type.STR).alias("checksum", "checksum_algorithm")
                .alias("checksum_algo", "checksum_algorithm")
                .opt("get_mime", ArgSpec.Type.BOOL).alias("mime", "get_mime").alias("mime_type", "get_mime")
                .alias("mime-type", "get_mime")
                .opt("get_attributes", ArgSpec.Type.BOOL).alias("attr", "get_attributes")
                .alias("attributes", "get_attributes");
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String path = ArgvExpand.path(ctx, ctx.str("path"));
        String algo = ctx.str("checksum_algorithm", "sha1");
        if (!algo.matches("md5|sha1|sha224|sha256|sha384|sha512")) {
            throw new ModuleException("checksum_algorithm must be one of md5, sha1, sha224, sha256, sha384, sha512; got '" + algo + "'");
        }
        String digest = ctx.bool("get_checksum", true) ? algo + "sum" : "";
        ExecResult r = ctx.run(Cmd.script(SCRIPT, path, ctx.bool("follow", false) ? "1" : "0", digest));
        if (!r.ok()) throw new ModuleException("cannot stat " + path + ": " + r.stderr().strip());
        return ModuleResult.ok("").withData(Map.of("stat", parse(path, r.stdout())));
    }

    /** The {@code stat} dictionary from the script's output (pure). */
    static Map<String, Object> parse(String path, String out) {
        String[] f = out.split("\0", -1);
        Map<String, Object> s = new LinkedHashMap<>();
        if (f[0].equals("absent")) {
            s.put("exists", false);
            return s;
        }
        if (f.length < 5) throw new ModuleException("cannot stat " + path + ": unexpected output '" + out.strip() + "'");
        String[] v = f[0].split("\t", -1);
        if (v.length != 15) throw new ModuleException("cannot stat " + path + ": unexpected output '" + f[0] + "'");
        int mode = Integer.parseInt(v[1], 8);
        s.put("exists", true);
        s.put("path", path);
        s.put("mode", String.format("%04o", mode));
        s.put("isdir", v[0].equals("directory"));
        s.put("ischr", v[0].equals("character special file"));
        s.put("isblk", v[0].equals("block special file"));
        s.put("isreg", v[0].startsWith("regular"));
        s.put("isfifo", v[0].equals("fifo"));
        s.put("islnk", v[0].equals("symbolic link"));
        s.put("issock", v[0].equals("socket"));
        s.put("uid", Long.parseLong(v[2]));
        s.put("gid", Long.parseLong(v[3]));
        s.put("size", Long.parseLong(v[4]));
        s.put("inode", Long.parseLong(v[8]));
        s.put("dev", Long.parseLong(v[10]));
        s.put("nlink", Long.parseLong(v[9]));
        s.put("atime", seconds(v[6]));
        s.put("mtime", seconds(v[5]));
        s.put("ctime", seconds(v[7]));
        String[] bits = {"xoth", "woth", "roth", "xgrp", "wgrp", "rgrp", "xusr", "wusr", "rusr"};
        for (int i = bits.length - 1; i >= 0; i--) s.put(bits[i], (mode & (1 << i)) != 0);
        s.put("isuid", (mode & 04000) != 0);
        s.put("isgid", (mode & 02000) != 0);
        s.put("blocks", Long.parseLong(v[13]));
        s.put("block_size", Long.parseLong(v[14]));
        if (!v[11].equals("UNKNOWN")) s.put("pw_name", v[11]);
        if (!v[12].equals("UNKNOWN")) s.put("gr_name", v[12]);
        s.put("readable", f[2].contains("r"));
        s.put("writeable", f[2].contains("w"));
        s.put("executable", f[2].contains("x"));
        if (!f[1].isEmpty()) s.put("checksum", f[1].strip());
        if (f.length > 4 && !f[4].isEmpty()) {
            s.put("lnk_source", f[3]);
            s.put("lnk_target", f[4]);
        }
        return s;
    }

    /** Seconds with their fraction, as Python's float st_mtime. */
    private static double seconds(String s) {
        return new BigDecimal(s).doubleValue();
    }
}
