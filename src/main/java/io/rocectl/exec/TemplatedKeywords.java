package io.rocectl.exec;

import io.rocectl.playbook.AnsibleBool;
import io.rocectl.playbook.Task;
import io.rocectl.template.Py;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The task keywords rendered per host, and per loop item, once {@code when} holds and before the
 * module runs (Ansible 2.14's post_validate): a templated {@code ignore_errors} and {@code notify}.
 * A value that cannot be rendered fails the task there, as in Ansible; a templated
 * {@code ignore_errors} that could not be rendered ignores that failure (Ansible keeps the
 * template's text, a non-empty string, so true).
 */
final class TemplatedKeywords {
    private TemplatedKeywords() {}

    /**
     * @param task   the task with {@code ignore_errors} rendered to a boolean where it was a template
     * @param names  the handler names and topics it notifies when it changes something
     * @param error  why the task fails before its module runs, or null
     */
    record Resolved(Task task, List<String> names, String error) {}

    static Resolved resolve(Task task, Map<String, Object> vars) {
        Templar templar = Templar.get();
        Task t = task;
        if (task.ignoreErrorsTemplated()) {
            String raw = (String) task.ignoreErrorsSetting();
            Object v;
            try {
                v = templar.render(raw, vars);
            } catch (TemplateException e) {
                return new Resolved(task, List.of(), invalid("ignore_errors", e));
            }
            Boolean b = v == null ? Boolean.FALSE : AnsibleBool.parse(v);
            if (b == null) {
                return new Resolved(task, List.of(), "the field 'ignore_errors' has an invalid value (" + raw
                        + "), and could not be converted to a bool. The error was: The value '" + Py.str(v)
                        + "' is not a valid boolean. Valid booleans include: " + AnsibleBool.VALID);
            }
            t = task.toBuilder().ignoreErrorsSetting(b).build();
        }
        try {
            return new Resolved(t, notifyNames(task, vars), null);
        } catch (TemplateException e) {
            return new Resolved(t, List.of(), invalid("notify", e));
        }
    }

    /** The names a task notifies on a host: its {@code notify} entries, each rendered (a list gives its items). */
    static List<String> notifyNames(Task task, Map<String, Object> vars) {
        boolean templated = false;
        for (String n : task.notifies()) templated |= Templar.isTemplate(n);
        if (!templated) return task.notifies();
        List<String> out = new ArrayList<>();
        for (String n : task.notifies()) {
            Object v = Templar.get().render(n, vars);
            if (v instanceof List<?> l) for (Object x : l) out.add(Py.str(x));
            else out.add(Py.str(v));
        }
        return out;
    }

    private static String invalid(String field, TemplateException e) {
        return "The field '" + field + "' has an invalid value, which includes an undefined variable or a template "
                + "error. The error was: " + e.getMessage();
    }
}
