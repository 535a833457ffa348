package io.rocectl.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;

/** Jinjava's interpreter with Ansible's undefined variables: a name nobody defined is {@link Undefined}. */
final class AnsibleInterpreter extends JinjavaInterpreter {
    AnsibleInterpreter(Jinjava jinjava, Context context, JinjavaConfig config) {
        super(jinjava, context, config);
    }

    @Override
    public Object retraceVariable(String variable, int lineNumber, int startPosition) {
        // a variable named like a word of Jinjava's expression language, renamed by ExprRewriter
        if (variable != null && variable.startsWith(ExprRewriter.RESERVED_ALIAS)) {
            variable = variable.substring(ExprRewriter.RESERVED_ALIAS.length());
        }
        Object v = super.retraceVariable(variable, lineNumber, startPosition);
        if (v != null || variable == null || variable.contains(".")) return v;
        for (Context c = getContext(); c != null; c = c.getParent()) {
            if (c.getScope().containsKey(variable)) return null;
        }
        return new Undefined(variable);
    }
}
