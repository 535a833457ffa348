package io.rocectl.template;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.expression.ExpressionStrategy;
import com.hubspot.jinjava.tree.output.RenderedOutputNode;
import com.hubspot.jinjava.tree.parse.ExpressionToken;

/** Prints {@code {{ }}} as Ansible does: Python's str() of the value, None as nothing. */
final class PyOutput implements ExpressionStrategy {
    private static final long serialVersionUID = 1L;

    @Override
    public RenderedOutputNode interpretOutput(ExpressionToken master, JinjavaInterpreter interpreter) {
        Object v = interpreter.resolveELExpression(master.getExpr(), interpreter.getLineNumber());
        return new RenderedOutputNode(finalized(v));
    }

    static String finalized(Object v) {
        if (v instanceof Undefined u) throw u.error();
        if (v == null) return "";
        return Py.str(v);
    }
}
