package io.rocectl.template;

import com.hubspot.jinjava.util.HasObjectTruthValue;

/**
 * An undefined variable, attribute or index, as Ansible's strict undefined: {@code is defined},
 * {@code default()} and attribute chains ({@code x.y | default(1)}) accept it; printing it,
 * testing its truth, comparing or computing with it is an error naming it.
 */
final class Undefined implements HasObjectTruthValue {
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

    @Override
    public String toString() {
        throw error();
    }

}
