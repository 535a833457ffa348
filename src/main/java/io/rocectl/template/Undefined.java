package io.rocectl.template;

import com.hubspot.jinjava.util.HasObjectTruthValue;

import java.util.AbstractCollection;
import java.util.Iterator;

/**
 * An undefined variable, attribute or index, as Ansible's strict undefined: {@code is defined},
 * {@code default()} and attribute chains ({@code x.y | default(1)}) accept it; printing it,
 * testing its truth, comparing, iterating, {@code in} or computing with it is an error naming it.
 */
final class Undefined extends AbstractCollection<Object> implements HasObjectTruthValue {
    private final String name;

    Undefined(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    TemplateException error() {
        return new TemplateException("undefined variable " + name);
    }

    @Override
    public boolean getObjectTruthValue() {
        throw error();
    }

    /** A collection only so that Jinjava's {@code in} asks it (and fails) instead of answering false. */
    @Override
    public Iterator<Object> iterator() {
        throw error();
    }

    @Override
    public int size() {
        throw error();
    }

    @Override
    public boolean contains(Object o) {
        throw error();
    }

    @Override
    public String toString() {
        throw error();
    }

}
