package io.rocectl.template;

import com.hubspot.jinjava.el.ExtendedSyntaxBuilder;
import com.hubspot.jinjava.el.ext.AdditionOperator;
import com.hubspot.jinjava.el.ext.ExtendedParser;
import io.rocectl.yaml.Timestamp;
import jinjava.de.odysseus.el.misc.BooleanOperations;
import jinjava.de.odysseus.el.misc.NumberOperations;
import jinjava.de.odysseus.el.misc.TypeConverter;
import jinjava.de.odysseus.el.tree.impl.Parser;
import jinjava.de.odysseus.el.tree.impl.ast.AstBinary;
import jinjava.de.odysseus.el.tree.impl.ast.AstNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Python's arithmetic on text where Jinjava's EL reads a string as a number: {@code "6" * 2} is
 * {@code "66"} (a sequence repeated), {@code "55" + 1} and {@code "5" - 1} are type errors, as in
 * Ansible's Jinja (a value a template produced is often text: {@code "{{ n | int + 1 }}"}).
 */
public final class PyArithmetic extends ExtendedSyntaxBuilder {
    private static final long serialVersionUID = 1L;

    /** Built by the expression factory from its class name (PyTruth). */
    public PyArithmetic(jinjava.de.odysseus.el.tree.impl.Builder.Feature... features) {
        super(features);
    }

    @Override
    protected Parser createParser(String expression) {
        return new ExtendedParser(this, expression) {
            @Override
            protected AstBinary createAstBinary(AstNode left, AstNode right, AstBinary.Operator operator) {
                return super.createAstBinary(left, right, python(operator));
            }
        };
    }

    static AstBinary.Operator python(AstBinary.Operator op) {
        if (op == AdditionOperator.OP) return ADD;
        if (op == AstBinary.MUL) return MUL;
        if (op == AstBinary.SUB) return SUB;
        if (op == AstBinary.DIV) return DIV;
        if (op == AstBinary.EQ) return EQ;
        if (op == AstBinary.NE) return NE;
        return op;
    }

    private static boolean text(Object o) {
        return o instanceof CharSequence;
    }

    private static boolean number(Object o) {
        return o instanceof Number && !(o instanceof Boolean);
    }

    private static TemplateException unsupported(String op, Object a, Object b) {
        return new TemplateException("unsupported operand type(s) for " + op + ": '" + Py.typeName(a) + "' and '" + Py.typeName(b) + "'");
    }

    private static final AstBinary.Operator ADD = new AdditionOperator() {
        @Override
        protected Object apply(TypeConverter converter, Object a, Object b) {
            if (text(a) && number(b)) {
                throw new TemplateException("can only concatenate str (not \"" + Py.typeName(b) + "\") to str");
            }
            if (number(a) && text(b)) throw unsupported("+", a, b);
            return super.apply(converter, a, b);
        }
    };

    private static final AstBinary.Operator MUL = operator("*", (c, a, b) -> {
        if ((text(a) || a instanceof List<?>) && number(b)) return repeat(a, (Number) b);
        if (number(a) && (text(b) || b instanceof List<?>)) return repeat(b, (Number) a);
        if (text(a) || text(b)) throw new TemplateException("can't multiply sequence by non-int of type '"
                + Py.typeName(text(a) ? b : a) + "'");
        return NumberOperations.mul(c, a, b);
    });

    private static Object repeat(Object seq, Number times) {
        if (times instanceof Double || times instanceof Float || times instanceof java.math.BigDecimal) {
            throw new TemplateException("can't multiply sequence by non-int of type 'float'");
        }
        long n = times instanceof java.math.BigInteger big && big.bitLength() >= 63
                ? (big.signum() < 0 ? -1L : Long.MAX_VALUE) : times.longValue();
        if (seq instanceof CharSequence s) {
            if (n <= 0 || s.length() == 0) return "";
            TemplateLimits.chars("'" + (s.length() > 20 ? s.subSequence(0, 17) + "..." : s) + "' * " + n,
                    TemplateLimits.times(s.length(), n));
            return s.toString().repeat((int) n);
        }
        List<?> l = (List<?>) seq;
        List<Object> out = new ArrayList<>();
        if (n <= 0 || l.isEmpty()) return out;
        TemplateLimits.chars("a list * " + n, TemplateLimits.times(l.size(), n));
        for (long i = 0; i < n; i++) out.addAll(l);
        return out;
    }

    /** One binary operator: its symbol (what JUEL prints) and what it computes. */
    private interface Apply {
        Object apply(TypeConverter converter, Object a, Object b);
    }

    private static AstBinary.Operator operator(String symbol, Apply f) {
        return new AstBinary.SimpleOperator() {
            @Override
            protected Object apply(TypeConverter converter, Object a, Object b) {
                return f.apply(converter, a, b);
            }

            @Override
            public String toString() {
                return symbol;
            }
        };
    }

    /** JUEL's own {@code -} and {@code /} (NumberOperations), refusing text as Python does. */
    private static final AstBinary.Operator SUB = operator("-", (c, a, b) -> {
        if (text(a) || text(b)) throw unsupported("-", a, b);
        return NumberOperations.sub(c, a, b);
    });

    private static final AstBinary.Operator DIV = operator("/", (c, a, b) -> {
        if (text(a) || text(b)) throw unsupported("/", a, b);
        return NumberOperations.div(c, a, b);
    });

    /**
     * JUEL's {@code ==} and {@code !=}, but a YAML date or datetime compares as Python's does: equal
     * only to the same date or moment, never to a string (JUEL would compare their text).
     */
    private static final AstBinary.Operator EQ = operator("==", (c, a, b) ->
            a instanceof Timestamp || b instanceof Timestamp ? Timestamp.pyEquals(a, b) : BooleanOperations.eq(c, a, b));

    private static final AstBinary.Operator NE = operator("!=", (c, a, b) ->
            a instanceof Timestamp || b instanceof Timestamp ? !Timestamp.pyEquals(a, b) : BooleanOperations.ne(c, a, b));
}
