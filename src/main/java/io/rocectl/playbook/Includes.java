package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.template.Templar;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlScalar;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The loader's state while it reads files that name other files ({@code import_tasks},
 * {@code import_playbook}, roles): the playbook directory of the play being read, the role whose
 * files are being read, the files being read (a file that imports itself is an error) and the
 * play's roles. Relative task file names are looked up as Ansible does: in the role's
 * {@code tasks/}, next to the file that names them, then in the playbook's directory.
 */
final class Includes {
    /** How deep imports may nest (a cycle through templated names would otherwise never end). */
    static final int MAX_DEPTH = 50;

    private final PlaybookLoader loader;
    final Roles roles;
    /** The directory of the playbook file whose play is being read. */
    Path baseDir = Path.of("").toAbsolutePath();
    /** The role whose files are being read, or null. */
    Roles.Scope role;
    /** At run time: the directory of the file holding the include_role (its roles/ is searched too), or null. */
    Path includingDir;
    /** The roles of the play being read (dedup, handlers, defaults, vars). */
    Roles.Acc playRoles = new Roles.Acc(false);
    private final Deque<Path> reading = new ArrayDeque<>();

    Includes(PlaybookLoader loader) {
        this.loader = loader;
        this.roles = new Roles(loader, this);
    }

    /** Runs {@code body} while {@code f} is being read; reading it again inside is an import cycle. */
    <T> T reading(Function<String, InputError> err, Path f, Supplier<T> body) {
        Path abs = f.toAbsolutePath().normalize();
        if (reading.contains(abs)) throw err.apply("'" + display(f) + "' includes itself");
        if (reading.size() >= MAX_DEPTH) throw err.apply("includes nest deeper than " + MAX_DEPTH + " files");
        reading.push(abs);
        try {
            return body.get();
        } finally {
            reading.pop();
        }
    }

    <T> T reading(YamlSource src, YamlNode at, Path f, Supplier<T> body) {
        return reading(m -> src.error(at, m), f, body);
    }

    /** {@code import_tasks: FILE} (or {@code file: FILE}): the file's tasks with the import's tags and conditions. */
    List<Step> importTasks(YamlSource src, YamlNode v, Set<String> tags, List<Object> when, boolean handler,
                           boolean noLog) {
        YamlNode fileNode = fileNode(src, v, "import_tasks");
        String name = src.scalar(fileNode, "the file of 'import_tasks'");
        if (Templar.isTemplate(name)) {
            throw src.error(fileNode, "import_tasks: the file name '" + name + "' is a template: use include_tasks");
        }
        List<Path> dirs = taskDirs(src.file());
        Path f = find(dirs, name);
        if (f == null) throw src.error(fileNode, "import_tasks: file not found: '" + name + "' (looked in " + dirs + ")");
        return tasksFile(m -> src.error(fileNode, m), f, tags, when, handler, noLog);
    }

    /** A task file read as a task list (an empty file is no tasks). */
    List<Step> tasksFile(Function<String, InputError> err, Path f, Set<String> tags, List<Object> when,
                         boolean handler, boolean noLog) {
        return reading(err, f, () -> {
            YamlSource.Parsed p = YamlSource.parse(f, display(f));
            if (p.root() == null) return List.of();
            return loader.tasks.taskList(p.source(), p.root(), tags, when, handler, noLog);
        });
    }

    /** The file named by {@code import_tasks}/{@code include_tasks}: the value, or its {@code file} key. */
    static YamlNode fileNode(YamlSource src, YamlNode v, String what) {
        if (v instanceof YamlScalar) return v;
        YamlMapping m = src.mapping(v, "'" + what + "'");
        YamlNode file = null;
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "an argument name");
            if (k.equals("file") || k.equals("_raw_params")) file = t.getValueNode();
            else throw src.error(t.getKeyNode(), what + " has no argument '" + k + "' (file)");
        }
        if (file == null) throw src.error(v, what + " needs 'file'");
        return file;
    }

    /** Where a task file named in {@code fromFile} is looked for: the role's tasks/, next to it, the playbook's directory. */
    List<Path> taskDirs(String fromFile) {
        return taskDirs(fromFile, role == null ? null : role.path(), baseDir);
    }

    static List<Path> taskDirs(String fromFile, Path rolePath, Path playbookDir) {
        List<Path> dirs = new ArrayList<>();
        if (rolePath != null) dirs.add(rolePath.resolve("tasks"));
        if (fromFile != null) {
            Path parent = Path.of(fromFile).toAbsolutePath().getParent();
            if (parent != null && !dirs.contains(parent)) dirs.add(parent);
        }
        if (playbookDir != null && !dirs.contains(playbookDir)) dirs.add(playbookDir);
        return dirs;
    }

    /** The first {@code dir/name} that is a file, or null. */
    static Path find(List<Path> dirs, String name) {
        Path p = Path.of(name);
        if (p.isAbsolute()) return Files.isRegularFile(p) ? p : null;
        for (Path d : dirs) {
            Path c = d.resolve(name).normalize();
            if (Files.isRegularFile(c)) return c;
        }
        return null;
    }

    /** A path as errors show it: relative to the working directory when under it. */
    static String display(Path f) {
        Path abs = f.toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath();
        return abs.startsWith(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }
}
