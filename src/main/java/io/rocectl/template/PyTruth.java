package io.rocectl.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.el.TruthyTypeConverter;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.tag.IfTag;
import com.hubspot.jinjava.tree.TagNode;
import com.hubspot.jinjava.util.HasObjectTruthValue;
import jinjava.de.odysseus.el.ExpressionFactoryImpl;
import jinjava.de.odysseus.el.tree.TreeBuilder;
import jinjava.javax.el.ExpressionFactory;

import java.util.Properties;

/**
 * Python's truth in templates, where Jinjava has its own (it takes the string "false" as false):
 * {@code and}/{@code or}/{@code not}, inline {@code if} and {@code {% if %}} follow {@link Py#truthy},
 * and testing an undefined value is an error.
 */
final class PyTruth {
    private PyTruth() {}

    static boolean of(Object v) {
        if (v instanceof Undefined u) throw u.error();
        if (v instanceof HasObjectTruthValue h) return h.getObjectTruthValue();
        return Py.truthy(v);
    }

    /** Jinjava whose expressions convert to boolean by Python's rules. */
    static final class AnsibleJinjava extends Jinjava {
        private final ExpressionFactory factory;

        AnsibleJinjava(JinjavaConfig config) {
            super(config);
            Properties props = new Properties();
            props.setProperty(TreeBuilder.class.getName(), PyArithmetic.class.getName());
            props.setProperty("jinjava.javax.el.cacheSize", "0");
            factory = new ExpressionFactoryImpl(props, new Converter());
            registerTag(new If());
        }

        @Override
        public ExpressionFactory getExpressionFactory() {
            return factory;
        }
    }

    private static final class Converter extends TruthyTypeConverter {
        private static final long serialVersionUID = 1L;

        @Override
        protected Boolean coerceToBoolean(Object value) {
            return of(value);
        }
    }

    private static final class If extends IfTag {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean isPositiveIfElseNode(TagNode tag, JinjavaInterpreter interpreter) {
            return of(interpreter.resolveELExpression(tag.getHelpers(), tag.getLineNumber(), tag.getStartPosition()));
        }
    }
}
