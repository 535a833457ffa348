package io.rocectl.builtin.core;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code stat}: what is at a path, registered as Ansible's {@code stat} result (changes nothing,
 * runs in check mode too). Arguments: path (dest, name), follow (default false), get_checksum
 * (default true), checksum_algorithm (sha1, the default, sha224, sha256, sha384, sha512, md5).
 * Keys: exists, path, mode, isdir, isreg, islnk, ischr, isblk, isfifo, issock, uid, gid, size,
 * inode, dev, nlink, atime, mtime, ctime, blocks, block_size, pw_name, gr_name, the permission
 * bits (rusr ... xoth, isuid, isgid), readable, writeable, executable, checksum (regular files),
 * lnk_source and lnk_target (links), mimetype and charset (get_mime, file(1)), version, attr_flags and
 * attributes (get_attributes, lsattr(1)).
 */
public final class StatModule implements Module {
    /**
     * $1 path, $2 "1" to follow links, $3 digest program or "", $4 "1" for the mime type, $5 "1" for
     * the attributes. NUL-separated fields, see {@link #parse}, {@link #mime}, {@link #attributes}.
     */
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
            m=-; if [ "$4" = 1 ] && command -v file >/dev/null 2>&1; then m=$(file -b $L --mime-type --mime-encoding -- "$p" 2>/dev/null) || m=-; fi
            printf '%s\\0' "$m"
            t=-; if [ "$5" = 1 ] && command -v lsattr >/dev/null 2>&1; then t=$(lsattr -vd -- "$p" 2>/dev/null) || t=-; fi
            printf '%s\\0' "$t"
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
        boolean mime = ctx.bool("get_mime", true);
        boolean attrs = ctx.bool("get_attributes", true);
        ExecResult r = ctx.run(Cmd.script(SCRIPT, path, ctx.bool("follow", false) ? "1" : "0", digest,
                mime ? "1" : "0", attrs ? "1" : "0"));
        if (!r.ok()) throw new ModuleException("cannot stat " + path + ": " + r.stderr().strip());
        Map<String, Object> st = parse(path, r.stdout());
        if (Boolean.TRUE.equals(st.get("exists"))) {
            String[] f = r.stdout().split("\0", -1);
            if (mime) st.putAll(mime(f.length > 5 ? f[5] : "-"));
            if (attrs) st.putAll(attributes(f.length > 6 ? f[6] : "-"));
        }
        return ModuleResult.ok("").withData(Map.of("stat", st));
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

    /** lsattr's flag letters and the names Ansible gives them (its FILE_ATTRIBUTES table). */
    private static final Map<Character, String> ATTRIBUTES = Map.ofEntries(
            Map.entry('A', "noatime"), Map.entry('a', "append"), Map.entry('c', "compressed"), Map.entry('C', "nocow"),
            Map.entry('d', "nodump"), Map.entry('D', "dirsync"), Map.entry('e', "extents"), Map.entry('E', "encrypted"),
            Map.entry('h', "blocksize"), Map.entry('i', "immutable"), Map.entry('I', "indexed"), Map.entry('j', "journalled"),
            Map.entry('N', "inline"), Map.entry('s', "zero"), Map.entry('S', "synchronous"), Map.entry('t', "notail"),
            Map.entry('T', "blockroot"), Map.entry('u', "undelete"), Map.entry('X', "compressedraw"),
            Map.entry('Z', "compresseddirty"));

    /**
     * {@code mimetype} and {@code charset} from {@code file -b --mime-type --mime-encoding}
     * ("text/plain; charset=us-ascii"), "unknown" both when file(1) is missing or failed ("-"), as Ansible.
     */
    static Map<String, Object> mime(String out) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mimetype", "unknown");
        m.put("charset", "unknown");
        String o = out.strip();
        int semi = o.indexOf(';');
        int eq = o.indexOf('=', Math.max(semi, 0));
        if (!o.equals("-") && semi > 0 && eq > semi) {
            m.put("mimetype", o.substring(0, semi).strip());
            m.put("charset", o.substring(eq + 1).strip());
        }
        return m;
    }

    /**
     * {@code version}, {@code attr_flags} and {@code attributes} from {@code lsattr -vd}
     * ("VERSION FLAGS PATH"): the flags without dashes and their names; version null, no flags and
     * no attributes when lsattr is missing or failed ("-"), as Ansible.
     */
    static Map<String, Object> attributes(String out) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("version", null);
        a.put("attributes", List.of());
        a.put("attr_flags", "");
        String[] w = out.strip().split("\\s+", 3);
        if (w.length < 3 || out.strip().equals("-")) return a;
        String flags = w[1].replace("-", "");
        List<String> names = new ArrayList<>();
        for (char c : flags.toCharArray()) if (ATTRIBUTES.containsKey(c)) names.add(ATTRIBUTES.get(c));
        a.put("version", w[0]);
        a.put("attributes", names);
        a.put("attr_flags", flags);
        return a;
    }

    /** Seconds with their fraction, as Python's float st_mtime. */
    private static double seconds(String s) {
        return new BigDecimal(s).doubleValue();
    }
}
