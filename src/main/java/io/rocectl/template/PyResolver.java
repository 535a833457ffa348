package io.rocectl.template;

import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

import java.beans.FeatureDescriptor;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Attribute, index and method resolution as Python does it, ahead of Jinjava's own: a missing
 * key or index is {@link Undefined} (an error unless tested or defaulted), {@code s[0]} is a
 * character, and Python's string/list/dict methods work.
 */
final class PyResolver extends ELResolver {
    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        if (base == null) return null;
        if (base instanceof Undefined u) {
            context.setPropertyResolved(true);
            return new Undefined(u.name() + "." + property);
        }
        if (property instanceof Undefined u) throw u.error();
        if (base instanceof Map<?, ?> m && property != null) {
            Object key = property instanceof CharSequence ? property.toString() : property;
            if (!m.containsKey(key) && !(property instanceof Number n && m.containsKey(n.toString()))) {
                context.setPropertyResolved(true);
                return new Undefined(Py.str(property));
            }
            return null;
        }
        if (base instanceof List<?> l && (property instanceof Number || property instanceof CharSequence cs && cs.toString().matches("-?\\d+"))) {
            long i = property instanceof Number n ? n.longValue() : Long.parseLong(property.toString());
            Object n = property;
            if (i < 0) i += l.size();
            if (i < 0 || i >= l.size()) {
                context.setPropertyResolved(true);
                return new Undefined("[" + n + "]");
            }
            return null;
        }
        if (base instanceof CharSequence s && (property instanceof Number || property instanceof CharSequence cs && cs.toString().matches("-?\\d+"))) {
            long i = property instanceof Number n ? n.longValue() : Long.parseLong(property.toString());
            if (i < 0) i += s.length();
            if (i < 0 || i >= s.length()) throw new TemplateException("string index out of range");
            context.setPropertyResolved(true);
            return String.valueOf(s.charAt((int) i));
        }
        return null;
    }

    @Override
    public Object invoke(ELContext context, Object base, Object method, Class<?>[] paramTypes, Object[] params) {
        if (base instanceof Undefined u) throw u.error();
        if (base == null || method == null) return null;
        Object r = PyStrings.invoke(base, method.toString(), params == null ? new Object[0] : params);
        if (r == PyStrings.NO_METHOD) return null;
        context.setPropertyResolved(true);
        return r;
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {
        // read-only
    }

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
        return true;
    }

    @Override
    public Iterator<FeatureDescriptor> getFeatureDescriptors(ELContext context, Object base) {
        return null;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
        return Object.class;
    }
}
