/*
 * The analysis worker: a JVM the server starts and keeps warm, which compiles and runs users' Groovy
 * analysis scripts in a sandbox. The server never runs user code in its own process.
 *
 * Protocol (docs/test-management.md): one JSON object per line. The worker writes
 *   {"t":"ready","groovy":"2.4.21","java":"17.0.15","guard":true}
 * once, then answers each request line on stdin with one line on stdout, in order:
 *   {"t":"validate","id":"…","source":"…"}
 *     → {"t":"validated","id":"…","errors":[{"line":3,"column":5,"message":"…"}]}
 *   {"t":"run","id":"…","source":"…","input":{…},"limits":{"cpu_ms":…,"wall_ms":…,"output_bytes":…}}
 *     → {"t":"result","id":"…","ok":true,"report":{…}}
 *     → {"t":"result","id":"…","ok":false,"error":{"kind":"cpu|wall|memory|output|stack|script|compile","message":"…","line":n},
 *        "report":{…what the script reported before it failed…},"fatal":true|false}
 * After a fatal result (a limit broken) the worker exits; the server starts another.
 * Anything a script or the JVM prints goes to stderr, never into the protocol.
 *
 * The server runs this JVM contained by the operating system (bubblewrap: no files of the server, no
 * environment, no network, its own user; decision 0200). Inside, the language sandbox has layers:
 * 1. Compile time: an allow-list of classes (SecureASTCustomizer plus the checks below, which give the
 *    line and column): no file, network, process, reflection, thread or System access, no
 *    annotations (AST transformations run code at compile time), no class definitions, no dynamic
 *    method or property names.
 * 2. Run time: the script is rewritten (Intercept) so that every call, property access and subscript
 *    goes through Guard, which checks the name and the receiver's actual class as it happens; the
 *    worker describes failures from its own strings (Failure) and never calls an object the script
 *    made; a run that changed a meta-class ends the JVM (MetaWatch).
 * 3. Where the JVM still has one, script classes get a protection domain with no permissions under a
 *    security manager. CPU time, wall time, heap (-Xmx) and output are limited per run.
 */

import groovy.json.JsonOutput
import groovy.json.JsonSlurper
import groovy.transform.CompileStatic
import org.codehaus.groovy.ast.ASTNode
import org.codehaus.groovy.ast.AnnotatedNode
import org.codehaus.groovy.ast.AnnotationNode
import org.codehaus.groovy.ast.ClassCodeExpressionTransformer
import org.codehaus.groovy.ast.ClassCodeVisitorSupport
import org.codehaus.groovy.ast.ClassHelper
import org.codehaus.groovy.ast.ClassNode
import org.codehaus.groovy.ast.FieldNode
import org.codehaus.groovy.ast.MethodNode
import org.codehaus.groovy.ast.ModuleNode
import org.codehaus.groovy.ast.Parameter
import org.codehaus.groovy.ast.expr.ArgumentListExpression
import org.codehaus.groovy.ast.expr.ArrayExpression
import org.codehaus.groovy.ast.expr.AttributeExpression
import org.codehaus.groovy.ast.expr.BinaryExpression
import org.codehaus.groovy.ast.expr.CastExpression
import org.codehaus.groovy.ast.expr.ClassExpression
import org.codehaus.groovy.ast.expr.ClosureExpression
import org.codehaus.groovy.ast.expr.ConstantExpression
import org.codehaus.groovy.ast.expr.ConstructorCallExpression
import org.codehaus.groovy.ast.expr.DeclarationExpression
import org.codehaus.groovy.ast.expr.Expression
import org.codehaus.groovy.ast.expr.MapEntryExpression
import org.codehaus.groovy.ast.expr.MapExpression
import org.codehaus.groovy.ast.expr.MethodCallExpression
import org.codehaus.groovy.ast.expr.MethodPointerExpression
import org.codehaus.groovy.ast.expr.NamedArgumentListExpression
import org.codehaus.groovy.ast.expr.PostfixExpression
import org.codehaus.groovy.ast.expr.PrefixExpression
import org.codehaus.groovy.ast.expr.PropertyExpression
import org.codehaus.groovy.ast.expr.SpreadExpression
import org.codehaus.groovy.ast.expr.SpreadMapExpression
import org.codehaus.groovy.ast.expr.StaticMethodCallExpression
import org.codehaus.groovy.ast.expr.TupleExpression
import org.codehaus.groovy.ast.expr.VariableExpression
import org.codehaus.groovy.ast.stmt.CatchStatement
import org.codehaus.groovy.ast.stmt.ForStatement
import org.codehaus.groovy.ast.stmt.SynchronizedStatement
import org.codehaus.groovy.classgen.GeneratorContext
import org.codehaus.groovy.control.CompilationFailedException
import org.codehaus.groovy.control.CompilePhase
import org.codehaus.groovy.control.CompilerConfiguration
import org.codehaus.groovy.control.MultipleCompilationErrorsException
import org.codehaus.groovy.control.SourceUnit
import org.codehaus.groovy.control.customizers.CompilationCustomizer
import org.codehaus.groovy.control.customizers.SecureASTCustomizer
import org.codehaus.groovy.control.messages.ExceptionMessage
import org.codehaus.groovy.control.messages.SimpleMessage
import org.codehaus.groovy.control.messages.SyntaxErrorMessage
import org.codehaus.groovy.runtime.InvokerHelper
import org.codehaus.groovy.runtime.MethodClosure
import org.codehaus.groovy.runtime.ScriptBytecodeAdapter
import org.codehaus.groovy.runtime.typehandling.DefaultTypeTransformation
import org.codehaus.groovy.syntax.SyntaxException
import org.codehaus.groovy.syntax.Types

import java.lang.management.ManagementFactory
import java.security.AccessController
import java.security.AllPermission
import java.security.PrivilegedAction
import java.security.CodeSource
import java.security.Permission
import java.security.PermissionCollection
import java.security.Permissions
import java.security.Policy
import java.security.ProtectionDomain

// ── The script API ─────────────────────────────────────────────────────────────────────────────

/** One collected CAN frame. */
@CompileStatic
class Frame {
  /** Seconds since the start of the first collected window. */
  final double time
  /** Epoch microseconds (the logger's clock). */
  final long timestamp
  final int channel
  final int id
  /** Bits: 1 extended id, 2 CAN FD, 4 bit-rate switch, 8 error state, 16 remote, 32 error frame, 64 transmitted. */
  final int flags
  final List<Integer> data

  Frame(double time, long timestamp, int channel, int id, int flags, List<Integer> data) {
    this.time = time; this.timestamp = timestamp; this.channel = channel; this.id = id; this.flags = flags; this.data = data
  }
  boolean isExt() { (flags & 1) != 0 }
  boolean isFd() { (flags & 2) != 0 }
  boolean isRtr() { (flags & 16) != 0 }
  boolean isTx() { (flags & 64) != 0 }
  int getDlc() { data.size() }
  String getHex() { data.collect { String.format('%02X', it) }.join('') }
  String toString() { String.format('%.6f ch%d %X [%d] %s', time, channel, id, data.size(), getHex()) }
}

/** A decoded DBC signal: its samples' times (seconds since the start) and physical values. */
@CompileStatic
class Signal {
  final String name
  final String message
  final int channel
  final String unit
  final List<Double> times
  final List<Double> values

  Signal(String name, String message, int channel, String unit, List<Double> times, List<Double> values) {
    this.name = name; this.message = message; this.channel = channel; this.unit = unit; this.times = times; this.values = values
  }
  int size() { values.size() }
  boolean isEmpty() { values.isEmpty() }
  Double mean() {
    if (values.isEmpty()) return null
    double s = 0d
    for (Double v : values) s += v
    return s / values.size()
  }
  Double min() { values.isEmpty() ? null : Collections.min(values) }
  Double max() { values.isEmpty() ? null : Collections.max(values) }
  Double first() { values.isEmpty() ? null : values[0] }
  Double last() { values.isEmpty() ? null : values[values.size() - 1] }
  String toString() { "${name} (${values.size()} samples)" }
}

/** Thrown when a script's output passes the cap; an Error, so a script's `catch (e)` cannot keep it. */
@CompileStatic
class OutputLimitError extends Error {
  OutputLimitError(String m) { super(m) }
}

/** What a run collects from the script: the report builder behind metric, table, check, chart and log. */
@CompileStatic
class RunContext {
  final List<Frame> frames
  final Map<String, Signal> signals
  final Map params
  final Map window
  final long outputCap
  long outputBytes = 0
  boolean overCap = false
  final List<Map> metrics = []
  final List<Map> tables = []
  final List<Map> checks = []
  final List<String> charts = []
  final StringBuilder log = new StringBuilder()

  RunContext(List<Frame> frames, Map<String, Signal> signals, Map params, Map window, long outputCap) {
    this.frames = frames; this.signals = signals; this.params = params; this.window = window; this.outputCap = outputCap
  }

  void spend(long bytes) {
    outputBytes += bytes
    if (outputBytes > outputCap) {
      overCap = true
      throw new OutputLimitError("output over ${outputCap} bytes".toString())
    }
  }

  Map report() {
    [metrics: metrics, tables: tables, checks: checks, charts: charts, log: log.toString()]
  }
}

/** The base class of every analysis script: the methods a script calls. */
@CompileStatic
abstract class AnalysisScript extends Script {
  /** Statically compiled: `script.__lh = …` from outside would set a binding variable instead. */
  private RunContext __lh

  void attach(RunContext ctx) { __lh = ctx }

  List<Frame> getFrames() { __lh.frames }
  Map getParams() { __lh.params }
  Map getWindow() { __lh.window }
  /** Names of the decoded signals (`Message.Signal`). */
  List<String> getSignals() { new ArrayList<String>(__lh.signals.keySet()) }

  Signal signal(String name) {
    Signal s = __lh.signals[name]
    if (s != null) return s
    List<Signal> hit = __lh.signals.values().findAll { Signal x -> x.name == name } as List<Signal>
    if (hit.size() == 1) return hit[0]
    String known = __lh.signals.keySet().join(', ') ?: 'none'
    if (hit.size() > 1) throw new IllegalArgumentException("signal '${name}' is in several messages: name it Message.Signal (collected: ${known})".toString())
    throw new IllegalArgumentException("no signal '${name}' was collected (collected: ${known})".toString())
  }

  void metric(String name, Number value, String unit = null) {
    if (value == null) throw new IllegalArgumentException("metric '${name}': no value".toString())
    double d = value.doubleValue()
    if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("metric '${name}' is not a finite number".toString())
    __lh.spend(name.length() + (unit == null ? 0 : unit.length()) + 32)
    Map m = [name: name, value: (value instanceof BigDecimal || value instanceof BigInteger) ? (Object) d : (Object) value, unit: unit]
    __lh.metrics.add(m)
  }

  void table(String name, List columns, List rows) {
    List<String> cols = columns.collect { Object c -> String.valueOf(c) } as List<String>
    List out = []
    for (Object row : rows) {
      List cells = []
      for (Object cell : (row as List)) {
        if (cell == null || cell instanceof Boolean) cells.add(cell)
        else if (cell instanceof Number) {
          double d = ((Number) cell).doubleValue()
          cells.add(Double.isNaN(d) || Double.isInfinite(d) ? null : (cell instanceof BigDecimal || cell instanceof BigInteger ? (Object) d : cell))
        } else cells.add(String.valueOf(cell))
      }
      out.add(cells)
    }
    __lh.spend(JsonOutput.toJson([name, cols, out]).length())
    Map t = [name: name, columns: cols, rows: out]
    __lh.tables.add(t)
  }

  boolean check(String name, Object condition) {
    boolean ok = condition as boolean
    __lh.spend(name.length() + 16)
    Map c = [name: name, passed: ok]
    __lh.checks.add(c)
    return ok
  }

  void chart(String... names) {
    for (String n : names) {
      Signal s = signal(n)
      String key = "${s.message}.${s.name}".toString()
      if (!__lh.charts.contains(key)) __lh.charts.add(key)
    }
  }

  void log(Object text) {
    String s = String.valueOf(text)
    __lh.spend(s.length() + 1)
    __lh.log.append(s).append('\n')
  }

  void println(Object text) { log(text) }
  void println() { log('') }
  void print(Object text) {
    String s = String.valueOf(text)
    __lh.spend(s.length())
    __lh.log.append(s)
  }
  void printf(String format, Object value) { print(String.format(format, value)) }
  void printf(String format, Object[] values) { print(String.format(format, values)) }

  // Script's own ways out, closed.
  Object evaluate(String s) { throw new SecurityException('evaluate is not allowed') }
  Object evaluate(File f) { throw new SecurityException('evaluate is not allowed') }
  void run(File f, String[] a) { throw new SecurityException('run is not allowed') }
}

// ── Compile-time sandbox ───────────────────────────────────────────────────────────────────────

class Sandbox {
  static final String SCRIPT_CODEBASE = SandboxPolicy.SCRIPT_CODEBASE

  /** Classes a script may name (declare, construct, cast to, call static methods of, catch). */
  static final Set<String> ALLOWED = ([
    'java.lang.Object', 'java.lang.String', 'java.lang.CharSequence', 'java.lang.Number', 'java.lang.Integer', 'java.lang.Long',
    'java.lang.Double', 'java.lang.Float', 'java.lang.Short', 'java.lang.Byte', 'java.lang.Character', 'java.lang.Boolean',
    'java.lang.Math', 'java.lang.StringBuilder', 'java.lang.Comparable', 'java.lang.Iterable',
    'java.lang.Exception', 'java.lang.RuntimeException', 'java.lang.IllegalArgumentException', 'java.lang.IllegalStateException',
    'java.lang.ArithmeticException', 'java.lang.NumberFormatException', 'java.lang.IndexOutOfBoundsException',
    'java.lang.UnsupportedOperationException', 'java.lang.NullPointerException',
    'java.math.BigDecimal', 'java.math.BigInteger', 'java.math.RoundingMode', 'java.math.MathContext',
    'java.util.List', 'java.util.ArrayList', 'java.util.LinkedList', 'java.util.Map', 'java.util.HashMap', 'java.util.LinkedHashMap',
    'java.util.TreeMap', 'java.util.SortedMap', 'java.util.Set', 'java.util.HashSet', 'java.util.LinkedHashSet', 'java.util.TreeSet',
    'java.util.SortedSet', 'java.util.Collection', 'java.util.Collections', 'java.util.Arrays', 'java.util.Iterator',
    'java.util.Comparator', 'java.util.Deque', 'java.util.ArrayDeque', 'java.util.Queue', 'java.util.PriorityQueue',
    'java.util.Objects', 'java.util.regex.Pattern', 'java.util.regex.Matcher',
    'groovy.lang.Closure', 'groovy.lang.Range', 'groovy.lang.IntRange', 'groovy.lang.GString',
    'Frame', 'Signal', 'AnalysisScript',
    'int', 'long', 'double', 'float', 'short', 'byte', 'char', 'boolean', 'void',
  ] as Set<String>).asImmutable()

  /** Methods no script may call, on anything: reflection, class loading, processes, exiting, threads, files, meta-programming. */
  static final Set<String> DENIED_METHODS = ([
    'getClass', 'forName', 'getClassLoader', 'loadClass', 'defineClass', 'newInstance', 'getDeclaredConstructor', 'getDeclaredConstructors',
    'getConstructor', 'getConstructors', 'getDeclaredMethod', 'getDeclaredMethods', 'getMethod', 'getMethods', 'getDeclaredField',
    'getDeclaredFields', 'getField', 'getFields', 'setAccessible', 'invoke', 'invokeMethod', 'invokeStaticMethod', 'getMetaClass',
    'setMetaClass', 'getMetaPropertyValues', 'getProperties', 'getProperty', 'setProperty', 'hasProperty', 'respondsTo', 'getMetaMethod',
    'execute', 'exec', 'exit', 'halt', 'evaluate', 'run', 'getBinding', 'setBinding', 'asType', 'wait', 'notify', 'notifyAll', 'sleep',
    'start', 'startDaemon', 'parallelStream', 'finalize', 'toURL', 'toURI', 'getText', 'newReader', 'newWriter', 'newInputStream',
    'newOutputStream', 'withReader', 'withWriter', 'withInputStream', 'withOutputStream', 'withPrintWriter', 'withObjectInputStream',
    'withObjectOutputStream', 'eachFile', 'eachFileRecurse', 'eachDir', 'setDelegate', 'rehydrate', 'dehydrate', 'getThisObject',
    'getOwner', 'getDelegate', 'use', 'mixin', 'identity', 'addShutdownHook', 'invokeConstructor', 'parseClass', 'addClasspath',
    'addURL', 'getResource', 'getResourceAsStream', 'getResources', 'getParent', 'getSystemClassLoader',
    // closures run with another delegate (`x.with { getAt(name) }` would dispatch unseen); fields dumped
    'with', 'tap', 'dump',
  ] as Set<String>).asImmutable()

  /** Properties (and variable names) no script may read or write. */
  static final Set<String> DENIED_PROPERTIES = ([
    'class', 'metaClass', 'classLoader', 'declaredMethods', 'declaredFields', 'declaredConstructors', 'methods', 'fields', 'constructors',
    'protectionDomain', 'binding', 'properties', 'metaPropertyValues', 'text', 'delegate', 'owner', 'thisObject', 'out', 'err', 'in',
  ] as Set<String>).asImmutable()

  static CompilerConfiguration configuration() {
    def conf = new CompilerConfiguration()
    conf.scriptBaseClass = AnalysisScript.name
    // @Grab would fetch and load code at compile time.
    conf.disabledGlobalASTTransformations = ['groovy.grape.GrabAnnotationTransformation'] as Set
    conf.addCompilationCustomizers(new NoAnnotations(), new Checker())
    def secure = new SecureASTCustomizer()
    secure.packageAllowed = false
    secure.methodDefinitionAllowed = true
    secure.closuresAllowed = true
    secure.importsWhitelist = ALLOWED.findAll { it.contains('.') } as List
    secure.starImportsWhitelist = []
    secure.staticImportsWhitelist = []
    secure.staticStarImportsWhitelist = ['java.lang.Math']
    secure.receiversClassesBlackList = [System, Runtime, Class, ClassLoader, Thread, ThreadGroup, ProcessBuilder, Process, File,
      GroovyShell, GroovyClassLoader, Eval, Binding, MetaClass, ExpandoMetaClass] as List
    conf.addCompilationCustomizers(secure)
    // Last, once every check has passed: calls, properties and subscripts rewritten to go through Guard.
    conf.addCompilationCustomizers(new Intercept())
    return conf
  }

  static void reject(SourceUnit source, ASTNode node, String message) {
    int line = Math.max(node?.lineNumber ?: 0, 0)
    int col = Math.max(node?.columnNumber ?: 0, 0)
    source.errorCollector.addErrorAndContinue(new SyntaxErrorMessage(
      new SyntaxException(message, line, col, Math.max(node?.lastLineNumber ?: line, 0), Math.max(node?.lastColumnNumber ?: col, 0)), source))
  }

  static boolean allowedType(ClassNode type) {
    if (type == null) return true
    if (type.isArray()) return allowedType(type.componentType)
    if (type.name == 'java.lang.Object' || ClassHelper.isPrimitiveType(type)) return true
    return ALLOWED.contains(type.name)
  }
}

/** Conversion phase, before any AST transformation can run: no annotations, no classes of the script's own. */
class NoAnnotations extends CompilationCustomizer {
  NoAnnotations() { super(CompilePhase.CONVERSION) }

  void call(SourceUnit source, GeneratorContext context, ClassNode classNode) {
    ModuleNode module = source.AST
    if (module.package != null) Sandbox.reject(source, module.package, 'package declarations are not allowed')
    if (!classNode.isScript()) {
      Sandbox.reject(source, classNode, "class definitions are not allowed (${classNode.nameWithoutPackage})")
    }
    def visitor = new ClassCodeVisitorSupport() {
      protected SourceUnit getSourceUnit() { source }
      void visitAnnotations(AnnotatedNode node) {
        // (a line number 0 is the compiler's own, e.g. the script base class)
        for (AnnotationNode a : node.annotations) if (a.lineNumber > 0) Sandbox.reject(source, a, "annotations are not allowed (@${a.classNode.nameWithoutPackage})")
      }
      void visitDeclarationExpression(DeclarationExpression e) {
        visitAnnotations(e)
        super.visitDeclarationExpression(e)
      }
    }
    visitor.visitClass(classNode)
    source.errorCollector.failIfErrors()
  }
}

/** Canonicalization phase: class references, method and property names, dynamic names. */
class Checker extends CompilationCustomizer {
  Checker() { super(CompilePhase.CANONICALIZATION) }

  void call(SourceUnit source, GeneratorContext context, ClassNode classNode) {
    ModuleNode module = source.AST
    for (def imp : module.imports) if (!Sandbox.allowedType(imp.type)) Sandbox.reject(source, imp, "import of ${imp.type.name} is not allowed")
    for (def imp : module.starImports) Sandbox.reject(source, imp, "import of ${imp.packageName}* is not allowed")
    for (def imp : module.staticImports.values()) Sandbox.reject(source, imp, "static import of ${imp.type.name}.${imp.fieldName} is not allowed")
    for (def imp : module.staticStarImports.values()) if (imp.type.name != 'java.lang.Math') Sandbox.reject(source, imp, "static import of ${imp.type.name}.* is not allowed")

    def check = { ASTNode node, ClassNode type, String what ->
      if (!Sandbox.allowedType(type)) Sandbox.reject(source, node, "${type.name} is not allowed (${what})")
    }
    def checkName = { ASTNode node, String name, Set<String> denied, String what ->
      if (name == null) Sandbox.reject(source, node, "dynamic ${what} names are not allowed")
      else if (name.startsWith('__') || denied.contains(name)) Sandbox.reject(source, node, "${what} '${name}' is not allowed")
    }

    def visitor = new ClassCodeVisitorSupport() {
      protected SourceUnit getSourceUnit() { source }

      void visitMethod(MethodNode node) {
        // the compiler's own methods (main, constructors) have no line: not the user's code
        if (!node.isScriptBody() && node.lineNumber < 1) return
        if (!node.isScriptBody()) {
          checkName(node, node.name, Sandbox.DENIED_METHODS, 'method')
          check(node, node.returnType, 'return type')
          for (Parameter p : node.parameters) check(p, p.type, 'parameter type')
        }
        super.visitMethod(node)
      }
      void visitField(FieldNode node) {
        check(node, node.type, 'field type')
        super.visitField(node)
      }
      void visitConstructorCallExpression(ConstructorCallExpression e) {
        if (e.isUsingAnonymousInnerClass()) Sandbox.reject(source, e, 'anonymous classes are not allowed')
        else if (e.isSpecialCall()) Sandbox.reject(source, e, 'constructor calls are not allowed')
        else check(e, e.type, 'new')
        super.visitConstructorCallExpression(e)
      }
      void visitClassExpression(ClassExpression e) {
        check(e, e.type, 'class reference')
        super.visitClassExpression(e)
      }
      void visitCastExpression(CastExpression e) {
        check(e, e.type, 'cast')
        super.visitCastExpression(e)
      }
      void visitArrayExpression(ArrayExpression e) {
        check(e, e.elementType, 'array')
        super.visitArrayExpression(e)
      }
      void visitDeclarationExpression(DeclarationExpression e) {
        if (!e.isMultipleAssignmentDeclaration()) {
          def v = e.variableExpression
          check(e, v.originType, 'variable type')
          checkName(v, v.name, Sandbox.DENIED_PROPERTIES, 'variable')
        } else {
          for (Expression x : e.tupleExpression.expressions) if (x instanceof VariableExpression) {
            check(x, ((VariableExpression) x).originType, 'variable type')
            checkName(x, ((VariableExpression) x).name, Sandbox.DENIED_PROPERTIES, 'variable')
          }
        }
        super.visitDeclarationExpression(e)
      }
      void visitVariableExpression(VariableExpression e) {
        if (e.name != 'this' && e.name != 'super') checkName(e, e.name, Sandbox.DENIED_PROPERTIES, 'variable')
        super.visitVariableExpression(e)
      }
      void visitMethodCallExpression(MethodCallExpression e) {
        checkName(e.method, e.methodAsString, Sandbox.DENIED_METHODS, 'method')
        super.visitMethodCallExpression(e)
      }
      void visitStaticMethodCallExpression(StaticMethodCallExpression e) {
        check(e, e.ownerType, 'static call')
        checkName(e, e.method, Sandbox.DENIED_METHODS, 'method')
        super.visitStaticMethodCallExpression(e)
      }
      void visitPropertyExpression(PropertyExpression e) {
        checkName(e.property, e.propertyAsString, Sandbox.DENIED_PROPERTIES, 'property')
        super.visitPropertyExpression(e)
      }
      void visitAttributeExpression(AttributeExpression e) {
        Sandbox.reject(source, e, 'direct field access (.@) is not allowed')
        super.visitAttributeExpression(e)
      }
      void visitMethodPointerExpression(MethodPointerExpression e) {
        Sandbox.reject(source, e, 'method pointers (.&) are not allowed')
        super.visitMethodPointerExpression(e)
      }
      void visitBinaryExpression(BinaryExpression e) {
        // x['class'] reads a property by name
        if (e.operation.type == Types.LEFT_SQUARE_BRACKET && e.rightExpression instanceof ConstantExpression) {
          def v = ((ConstantExpression) e.rightExpression).value
          if (v instanceof String) checkName(e.rightExpression, (String) v, Sandbox.DENIED_PROPERTIES, 'property')
        }
        super.visitBinaryExpression(e)
      }
      void visitClosureExpression(ClosureExpression e) {
        for (Parameter p : (e.parameters ?: new Parameter[0])) {
          check(p, p.type, 'parameter type')
          checkName(p, p.name, Sandbox.DENIED_PROPERTIES, 'parameter')
        }
        super.visitClosureExpression(e)
      }
      void visitForLoop(ForStatement s) {
        check(s, s.variableType, 'loop variable type')
        super.visitForLoop(s)
      }
      void visitCatchStatement(CatchStatement s) {
        check(s, s.exceptionType, 'catch')
        super.visitCatchStatement(s)
      }
      void visitSynchronizedStatement(SynchronizedStatement s) {
        Sandbox.reject(source, s, 'synchronized is not allowed')
        super.visitSynchronizedStatement(s)
      }
    }
    visitor.visitClass(classNode)
    source.errorCollector.failIfErrors()
  }
}

// ── Run-time guard ─────────────────────────────────────────────────────────────────────────────

/**
 * Every code source has every permission except the scripts'. Statically compiled: the policy is
 * asked while Groovy builds meta-classes, and dynamic code here would ask it again.
 */
@CompileStatic
class SandboxPolicy extends Policy {
  static final String SCRIPT_CODEBASE = '/loggerhead/analysis-script'

  boolean implies(ProtectionDomain domain, Permission permission) {
    return !isScript(domain == null ? null : domain.codeSource)
  }
  PermissionCollection getPermissions(CodeSource cs) {
    Permissions p = new Permissions()
    if (!isScript(cs)) p.add(new AllPermission())
    return p
  }
  static boolean isScript(CodeSource cs) {
    return cs != null && cs.location != null && SCRIPT_CODEBASE == cs.location.path
  }
}

/** Also asks for a permission before any thread or thread group is touched (the JDK's default skips most). */
@CompileStatic
class SandboxSecurityManager extends SecurityManager {
  void checkAccess(Thread t) { checkPermission(new RuntimePermission('modifyThread')) }
  void checkAccess(ThreadGroup g) { checkPermission(new RuntimePermission('modifyThreadGroup')) }
}

/** Compiles one script, then refuses to compile or load anything more (a script reaching it cannot use it). */
class ScriptLoader extends GroovyClassLoader {
  private boolean sealed = false
  ScriptLoader(ClassLoader parent, CompilerConfiguration conf) { super(parent, conf) }
  Class compileOnce(GroovyCodeSource cs) {
    if (sealed) throw new SecurityException('sealed')
    try {
      return super.parseClass(cs, false)
    } finally {
      sealed = true
    }
  }
  private void refuse() { if (sealed) throw new SecurityException('not allowed') }
  Class parseClass(GroovyCodeSource cs, boolean cache) { refuse(); super.parseClass(cs, cache) }
  Class parseClass(String text) { refuse(); super.parseClass(text) }
  Class parseClass(String text, String name) { refuse(); super.parseClass(text, name) }
  Class parseClass(File f) { refuse(); super.parseClass(f) }
  void addClasspath(String path) { refuse(); super.addClasspath(path) }
  void addURL(URL url) { refuse(); super.addURL(url) }
}

// ── Run-time guard: every call, property and subscript of a script, checked as it happens ─────

/** A class's members, read by the guard with its own privilege. */
@CompileStatic
class Members implements PrivilegedAction<Object> {
  final Class type
  final String which
  Members(Class type, String which) { this.type = type; this.which = which }
  Object run() { which == 'declared' ? (Object) type.declaredMethods : which == 'methods' ? (Object) type.methods : (Object) type.fields }
}

/**
 * What the rewritten script calls instead of dispatching itself (the `Intercept` customizer turns
 * `a.m(x)`, `a.p`, `a.p = v`, `a[i]`, `a[i] = v`, their compound and step forms, and `v as T` into
 * these). A name built at run time is checked here exactly as a literal one is at compile time,
 * against the receiver's actual class. Statically compiled: nothing a script did to meta-classes
 * changes what this code does.
 */
@CompileStatic
class Guard {
  /** Receiver classes (and their subclasses) whose methods and properties a script may use. */
  static final Set<String> RECEIVERS = ([
    'java.lang.String', 'java.lang.Number', 'java.lang.Integer', 'java.lang.Long', 'java.lang.Double', 'java.lang.Float',
    'java.lang.Short', 'java.lang.Byte', 'java.lang.Character', 'java.lang.Boolean', 'java.lang.StringBuilder',
    'java.lang.Exception', 'java.math.BigDecimal', 'java.math.BigInteger', 'java.math.RoundingMode', 'java.math.MathContext',
    'java.util.ArrayList', 'java.util.LinkedList', 'java.util.HashMap', 'java.util.LinkedHashMap', 'java.util.TreeMap',
    'java.util.HashSet', 'java.util.LinkedHashSet', 'java.util.TreeSet', 'java.util.ArrayDeque', 'java.util.PriorityQueue',
    'java.util.regex.Pattern', 'java.util.regex.Matcher', 'groovy.lang.Closure', 'groovy.lang.GString',
    'Frame', 'Signal',
  ] as Set<String>).asImmutable()

  /** Interfaces that make an object a plain collection a script may use (unmodifiable views, entries, ranges). */
  static final Set<String> RECEIVER_INTERFACES = ([
    'java.util.List', 'java.util.Map', 'java.util.Set', 'java.util.Collection', 'java.util.SortedMap', 'java.util.SortedSet',
    'java.util.Deque', 'java.util.Queue', 'java.util.Iterator', 'java.util.ListIterator', 'java.util.Map$Entry',
    'java.util.Comparator', 'groovy.lang.Range',
  ] as Set<String>).asImmutable()

  /** Methods of the script object itself: the API (besides the script's own methods). */
  static final Set<String> SCRIPT_API = ([
    'signal', 'metric', 'table', 'check', 'chart', 'log', 'println', 'print', 'printf', 'getFrames', 'getParams', 'getWindow', 'getSignals',
  ] as Set<String>).asImmutable()

  /** Methods refused at run time on top of the compile-time list: those that hand a closure another delegate or dump fields. */
  static final Set<String> MORE_DENIED_METHODS = (['attach', 'asWritable'] as Set<String>).asImmutable()

  private static final Map<Class, Set<String>> OWN_METHODS = Collections.synchronizedMap(new WeakHashMap<Class, Set<String>>())

  static SecurityException refuse(String what) { new SecurityException(what + ' is not allowed') }

  static String nameOf(Object n) {
    if (n instanceof String) return (String) n
    if (n instanceof GString) return ((GString) n).toString()
    throw refuse('a name that is not a string')
  }

  static boolean deniedMethod(String name) {
    name.startsWith('__') || name.startsWith('$') || Sandbox.DENIED_METHODS.contains(name) || MORE_DENIED_METHODS.contains(name)
  }

  static boolean deniedProperty(String name) {
    name.startsWith('__') || name.startsWith('$') || Sandbox.DENIED_PROPERTIES.contains(name)
  }

  /** Whether the script may use objects of class `c` (its own classes' instances aside). */
  static boolean receiverAllowed(Class c) {
    if (c.isArray()) {
      Class e = c.componentType
      return e.isPrimitive() || e == Object || receiverAllowed(e)
    }
    if (MethodClosure.isAssignableFrom(c)) return false
    for (Class k = c; k != null && k != Object; k = k.superclass) {
      if (RECEIVERS.contains(k.name)) return true
      if (interfacesAllowed(k)) return true
    }
    return false
  }

  private static boolean interfacesAllowed(Class k) {
    for (Class i : k.interfaces) {
      if (RECEIVER_INTERFACES.contains(i.name) || interfacesAllowed(i)) return true
    }
    return false
  }

  /** The script's own methods (those it declared) and the API. */
  static Set<String> scriptMethods(Class c) {
    Set<String> own = OWN_METHODS.get(c)
    if (own != null) return own
    Set<String> names = new HashSet<String>(SCRIPT_API)
    for (Class k = c; k != null && k != AnalysisScript; k = k.superclass) {
      for (java.lang.reflect.Method m : declaredMethods(k)) {
        if (m.synthetic || m.name == 'run' || m.name == 'main' || deniedMethod(m.name)) continue
        if (java.lang.reflect.Modifier.isPublic(m.modifiers)) names.add(m.name)
      }
    }
    OWN_METHODS.put(c, names)
    return names
  }

  // The guard's own look-ups are its privilege, not the script's (only these run privileged).
  private static java.lang.reflect.Method[] declaredMethods(Class k) {
    AccessController.doPrivileged(new Members(k, 'declared')) as java.lang.reflect.Method[]
  }

  static boolean hasStaticMethod(Class c, String name) {
    java.lang.reflect.Method[] all = AccessController.doPrivileged(new Members(c, 'methods')) as java.lang.reflect.Method[]
    for (java.lang.reflect.Method m : all) if (m.name == name && java.lang.reflect.Modifier.isStatic(m.modifiers)) return true
    return false
  }

  static boolean hasStaticField(Class c, String name) {
    java.lang.reflect.Field[] all = AccessController.doPrivileged(new Members(c, 'fields')) as java.lang.reflect.Field[]
    for (java.lang.reflect.Field f : all) if (f.name == name && java.lang.reflect.Modifier.isStatic(f.modifiers)) return true
    return false
  }

  /** A class named in the script (`Math.max`, `Integer.MAX_VALUE`): only the allowed ones, and only their static members. */
  static boolean classAllowed(Class c) {
    Sandbox.ALLOWED.contains(c.name) && c != Object && c != AnalysisScript
  }

  static void checkCall(Object receiver, String name) {
    if (deniedMethod(name)) throw refuse("method '${name}'".toString())
    if (receiver == null) return
    if (receiver instanceof Class) {
      Class c = (Class) receiver
      if (!classAllowed(c) || !hasStaticMethod(c, name)) throw refuse("${c.name}.${name}".toString())
      return
    }
    if (receiver instanceof AnalysisScript) {
      // its API, the methods it declared, and closures it put in its variables (`f = { … }; f(1)`);
      // anything else (Script's and Object's own) is, for the script, a method that is not there
      if (!scriptMethods(receiver.getClass()).contains(name) && !((AnalysisScript) receiver).binding.hasVariable(name))
        throw new MissingMethodException(name, receiver.getClass(), new Object[0])
      return
    }
    if (!receiverAllowed(receiver.getClass())) throw refuse("calling '${name}' on ${receiver.getClass().name}".toString())
  }

  static void checkProperty(Object receiver, String name, boolean write) {
    if (deniedProperty(name)) throw refuse("property '${name}'".toString())
    if (receiver == null) return
    if (receiver instanceof Class) {
      Class c = (Class) receiver
      if (write || !classAllowed(c) || !hasStaticField(c, name)) throw refuse("${c.name}.${name}".toString())
      return
    }
    if (receiver instanceof AnalysisScript) return
    if (!receiverAllowed(receiver.getClass())) throw refuse("property '${name}' of ${receiver.getClass().name}".toString())
  }

  static Object invoke(Object receiver, Object method, Object[] args, boolean safe, boolean spread) {
    String name = nameOf(method)
    if (receiver == null && safe) return null
    if (spread) {
      if (receiver == null) return null
      List out = []
      for (Object each : elements(receiver)) out.add(each == null ? null : invoke(each, name, args, false, false))
      return out
    }
    if (name == 'getAt' && args.length == 1) return getAt(receiver, args[0])
    if (name == 'putAt' && args.length == 2) {
      putAt(receiver, args[0], args[1])
      return null
    }
    checkCall(receiver, name)
    return InvokerHelper.invokeMethod(receiver, name, args)
  }

  static Object getProperty(Object receiver, Object property, boolean safe, boolean spread) {
    String name = nameOf(property)
    if (receiver == null && safe) return null
    if (spread) {
      if (receiver == null) return null
      List out = []
      for (Object each : elements(receiver)) out.add(each == null ? null : getProperty(each, name, false, false))
      return out
    }
    checkProperty(receiver, name, false)
    // A collection's unknown property is its elements' (`list.name`): each element is checked.
    if (receiver instanceof Collection && !(receiver instanceof Map) && InvokerHelper.getMetaClass(receiver).hasProperty(receiver, name) == null)
      return getProperty(receiver, name, false, true)
    return InvokerHelper.getProperty(receiver, name)
  }

  static Object setProperty(Object receiver, Object property, Object value) {
    String name = nameOf(property)
    checkProperty(receiver, name, true)
    if (receiver instanceof Collection && !(receiver instanceof Map)) throw refuse("setting '${name}' on a collection".toString())
    InvokerHelper.setProperty(receiver, name, value)
    return value
  }

  static Object index(Object i) { i instanceof GString ? ((GString) i).toString() : i }

  static Object getAt(Object receiver, Object i) {
    Object key = index(i)
    if (receiver instanceof Map) return ((Map) receiver).get(key)
    // x['name'] is a property read by another spelling
    if (key instanceof String) return getProperty(receiver, key, false, false)
    checkCall(receiver, 'getAt')
    return InvokerHelper.invokeMethod(receiver, 'getAt', [key] as Object[])
  }

  static Object putAt(Object receiver, Object i, Object value) {
    Object key = index(i)
    if (receiver instanceof Map) {
      ((Map) receiver).put(key, value)
      return value
    }
    if (key instanceof String) return setProperty(receiver, key, value)
    checkCall(receiver, 'putAt')
    InvokerHelper.invokeMethod(receiver, 'putAt', [key, value] as Object[])
    return value
  }

  /** `a op b` for a compound assignment or a step (`plus`, `next`, …), dispatched as the operator would be. */
  static Object operate(Object a, String op, Object[] args) {
    checkCall(a, op)
    return InvokerHelper.invokeMethod(a, op, args)
  }

  static Object updateProperty(Object receiver, Object property, String op, Object value) {
    setProperty(receiver, property, operate(getProperty(receiver, property, false, false), op, [value] as Object[]))
  }

  static Object updateAt(Object receiver, Object i, String op, Object value) {
    putAt(receiver, i, operate(getAt(receiver, i), op, [value] as Object[]))
  }

  static Object stepProperty(Object receiver, Object property, String op, boolean postfix) {
    Object old = getProperty(receiver, property, false, false)
    Object now = operate(old, op, new Object[0])
    setProperty(receiver, property, now)
    return postfix ? old : now
  }

  static Object stepAt(Object receiver, Object i, String op, boolean postfix) {
    Object old = getAt(receiver, i)
    Object now = operate(old, op, new Object[0])
    putAt(receiver, i, now)
    return postfix ? old : now
  }

  /** `v as T`: a closure or map may become an interface (a comparator), never a class: no object of the script's making that overrides a class's methods. */
  static Object asType(Object value, Class type) {
    if ((value instanceof Closure || value instanceof Map) && !type.isInterface() && !type.isPrimitive()
      && !type.isAssignableFrom(value.getClass()) && type != String && type != Boolean)
      throw refuse("turning a closure or map into ${type.name}".toString())
    return ScriptBytecodeAdapter.asType(value, type)
  }

  static Iterable elements(Object receiver) {
    if (receiver instanceof Iterable) return (Iterable) receiver
    if (receiver != null && receiver.getClass().isArray()) return DefaultTypeTransformation.asCollection(receiver)
    throw refuse("spreading (*.) over ${receiver == null ? 'null' : receiver.getClass().name}".toString())
  }
}

/**
 * Rewrites a script (last of the compile-time steps, after the checks) so that every call, property
 * access and subscript goes through `Guard`; closures' bodies included. `super` and the compiler's
 * own methods stay as they are.
 */
class Intercept extends CompilationCustomizer {
  static final ClassNode GUARD = ClassHelper.make(Guard)
  static final Map<Integer, String> COMPOUND = [
    (Types.PLUS_EQUAL): 'plus', (Types.MINUS_EQUAL): 'minus', (Types.MULTIPLY_EQUAL): 'multiply', (Types.DIVIDE_EQUAL): 'div',
    (Types.INTDIV_EQUAL): 'intdiv', (Types.MOD_EQUAL): 'mod', (Types.POWER_EQUAL): 'power', (Types.LEFT_SHIFT_EQUAL): 'leftShift',
    (Types.RIGHT_SHIFT_EQUAL): 'rightShift', (Types.RIGHT_SHIFT_UNSIGNED_EQUAL): 'rightShiftUnsigned',
    (Types.BITWISE_AND_EQUAL): 'and', (Types.BITWISE_OR_EQUAL): 'or', (Types.BITWISE_XOR_EQUAL): 'xor',
  ] as Map<Integer, String>

  Intercept() { super(CompilePhase.CANONICALIZATION) }

  void call(SourceUnit source, GeneratorContext context, ClassNode classNode) {
    def rewriter = new Rewriter(source)
    for (MethodNode m : classNode.methods) {
      if (m.isScriptBody() || m.lineNumber > 0) rewriter.visitMethod(m)
    }
    source.errorCollector.failIfErrors()
  }

  static class Rewriter extends ClassCodeExpressionTransformer {
    final SourceUnit source
    Rewriter(SourceUnit source) { this.source = source }
    protected SourceUnit getSourceUnit() { source }

    static boolean isSuper(Expression e) { e instanceof VariableExpression && ((VariableExpression) e).isSuperExpression() }
    static boolean isSubscript(Expression e) { e instanceof BinaryExpression && ((BinaryExpression) e).operation.type == Types.LEFT_SQUARE_BRACKET }
    static boolean isProperty(Expression e) { e instanceof PropertyExpression && !(e instanceof AttributeExpression) }

    Expression guard(String method, ASTNode at, List<Expression> args) {
      def call = new StaticMethodCallExpression(GUARD, method, new ArgumentListExpression(args))
      call.sourcePosition = at
      return call
    }
    static Expression bool(boolean b) { new ConstantExpression(b) }
    static Expression str(String s) { new ConstantExpression(s) }

    List<Expression> arguments(Expression args, ASTNode at) {
      List<Expression> out = []
      List<Expression> list = args instanceof TupleExpression ? ((TupleExpression) args).expressions : [args]
      for (Expression a : list) {
        if (a instanceof SpreadExpression || a instanceof SpreadMapExpression) {
          Sandbox.reject(source, a, 'spread arguments (*) are not allowed')
          continue
        }
        if (a instanceof NamedArgumentListExpression) out.add(new MapExpression(((NamedArgumentListExpression) a).mapEntryExpressions.collect { transform(it) as MapEntryExpression }))
        else out.add(transform(a))
      }
      return out
    }

    Expression transform(Expression e) {
      if (e == null) return null
      if (e instanceof ClosureExpression) {
        ((ClosureExpression) e).code?.visit(this)
        return e
      }
      if (e instanceof MethodCallExpression) return call((MethodCallExpression) e)
      if (e instanceof StaticMethodCallExpression) {
        def s = (StaticMethodCallExpression) e
        return guard('invoke', s, [new ClassExpression(s.ownerType), str(s.method),
          new ArrayExpression(ClassHelper.OBJECT_TYPE, arguments(s.arguments, s)), bool(false), bool(false)] as List<Expression>)
      }
      if (e instanceof DeclarationExpression) {
        def d = (DeclarationExpression) e
        d.rightExpression = transform(d.rightExpression)
        return d
      }
      if (isProperty(e)) {
        def p = (PropertyExpression) e
        if (isSuper(p.objectExpression)) return e
        return guard('getProperty', p, [transform(p.objectExpression), transform(p.property), bool(p.safe), bool(p.spreadSafe)] as List<Expression>)
      }
      if (e instanceof BinaryExpression) return binary((BinaryExpression) e)
      if (e instanceof PostfixExpression) return step(e, ((PostfixExpression) e).expression, ((PostfixExpression) e).operation.type, true)
      if (e instanceof PrefixExpression) return step(e, ((PrefixExpression) e).expression, ((PrefixExpression) e).operation.type, false)
      if (e instanceof CastExpression && ((CastExpression) e).coerce) {
        def c = (CastExpression) e
        def cast = new CastExpression(c.type, guard('asType', c, [transform(c.expression), new ClassExpression(c.type)] as List<Expression>), false)
        cast.sourcePosition = c
        return cast
      }
      return e.transformExpression(this)
    }

    Expression call(MethodCallExpression m) {
      if (isSuper(m.objectExpression)) {
        def copy = new MethodCallExpression(m.objectExpression, transform(m.method), transform(m.arguments))
        copy.sourcePosition = m
        copy.implicitThis = m.implicitThis
        return copy
      }
      Expression receiver = m.implicitThis ? new VariableExpression('this') : transform(m.objectExpression)
      return guard('invoke', m, [receiver, transform(m.method), new ArrayExpression(ClassHelper.OBJECT_TYPE, arguments(m.arguments, m)),
        bool(m.safe), bool(m.spreadSafe)] as List<Expression>)
    }

    Expression binary(BinaryExpression b) {
      int type = b.operation.type
      if (type == Types.LEFT_SQUARE_BRACKET) return guard('getAt', b, [transform(b.leftExpression), transform(b.rightExpression)] as List<Expression>)
      boolean assign = type == Types.ASSIGN || COMPOUND.containsKey(type)
      if (!assign) return b.transformExpression(this)
      Expression left = b.leftExpression
      Expression value = transform(b.rightExpression)
      if (isProperty(left) && !isSuper(((PropertyExpression) left).objectExpression)) {
        def p = (PropertyExpression) left
        if (p.spreadSafe) Sandbox.reject(source, p, 'assigning through *. is not allowed')
        Expression obj = transform(p.objectExpression), name = transform(p.property)
        return type == Types.ASSIGN ? guard('setProperty', b, [obj, name, value] as List<Expression>)
          : guard('updateProperty', b, [obj, name, str(COMPOUND[type]), value] as List<Expression>)
      }
      if (isSubscript(left)) {
        def s = (BinaryExpression) left
        Expression obj = transform(s.leftExpression), key = transform(s.rightExpression)
        return type == Types.ASSIGN ? guard('putAt', b, [obj, key, value] as List<Expression>)
          : guard('updateAt', b, [obj, key, str(COMPOUND[type]), value] as List<Expression>)
      }
      if (left instanceof TupleExpression) {
        for (Expression x : ((TupleExpression) left).expressions) if (!(x instanceof VariableExpression)) Sandbox.reject(source, x, 'only variables may be assigned together')
      }
      b.rightExpression = value
      return b
    }

    Expression step(Expression whole, Expression target, int op, boolean postfix) {
      String name = op == Types.PLUS_PLUS ? 'next' : 'previous'
      if (isProperty(target) && !isSuper(((PropertyExpression) target).objectExpression)) {
        def p = (PropertyExpression) target
        return guard('stepProperty', whole, [transform(p.objectExpression), transform(p.property), str(name), bool(postfix)] as List<Expression>)
      }
      if (isSubscript(target)) {
        def s = (BinaryExpression) target
        return guard('stepAt', whole, [transform(s.leftExpression), transform(s.rightExpression), str(name), bool(postfix)] as List<Expression>)
      }
      return whole.transformExpression(this)
    }
  }
}

/**
 * A script's failure told in plain strings the worker builds: nothing of an object the script made is
 * called (no `toString`, no overridden `getMessage`), and an exception of a class the worker does not
 * know (one the script's code made) is named, not asked.
 */
@CompileStatic
class Failure {
  /** Classes of the JDK or of Groovy and the worker themselves: their methods are theirs. */
  static boolean trusted(Class c) {
    ClassLoader l = c.getClassLoader()
    return l == null || l.is(ClassLoader.platformClassLoader) || l.is(ClassLoader.systemClassLoader) || l.is(Failure.getClassLoader())
  }

  static String describe(Throwable t) {
    Class c = t.getClass()
    if (!trusted(c)) return 'the script threw an object of its own making'
    if (t instanceof MissingMethodException) {
      MissingMethodException m = (MissingMethodException) t
      List<String> types = []
      for (Object a : (m.arguments ?: new Object[0])) types.add(a == null ? 'null' : a.getClass().getName())
      return cut("MissingMethodException: no method ${m.method}(${types.join(', ')}) of ${m.type == null ? '?' : m.type.getName()}".toString())
    }
    if (t instanceof MissingPropertyException) {
      MissingPropertyException m = (MissingPropertyException) t
      return cut("MissingPropertyException: no property ${m.property} of ${m.type == null ? '?' : m.type.getName()}".toString())
    }
    String message = t.getMessage()
    return cut(message == null ? c.getSimpleName() : c.getSimpleName() + ': ' + message)
  }

  static String cut(String s) { s.length() > 2000 ? s.substring(0, 2000) + '…' : s }

  /** The script line a failure came from (the first frame in a script class), from trusted throwables only. */
  static Integer scriptLine(Throwable t) {
    Throwable c = t
    for (int hops = 0; c != null && hops < 16 && trusted(c.getClass()); hops++) {
      for (StackTraceElement e : c.getStackTrace()) {
        String f = e.getFileName()
        if (f != null && f.startsWith('AnalysisScript') && e.getLineNumber() > 0) return e.getLineNumber()
      }
      c = c.getCause()
    }
    return null
  }
}

/** Notes any change of a meta-class (the guard lets a script make none; a run that did ends its JVM). */
@CompileStatic
class MetaWatch implements MetaClassRegistryChangeEventListener {
  static volatile boolean changed = false
  void updateConstantMetaClass(MetaClassRegistryChangeEvent e) { changed = true }
}

// ── The worker ─────────────────────────────────────────────────────────────────────────────────

class Worker {
  final PrintStream protocol
  final JsonSlurper json = new JsonSlurper()
  final CompilerConfiguration conf = Sandbox.configuration()
  final boolean guard
  int scripts = 0

  Worker(PrintStream protocol, boolean guard) { this.protocol = protocol; this.guard = guard }

  synchronized void send(Map m) {
    protocol.print(JsonOutput.toJson(m))
    protocol.print('\n')
    protocol.flush()
  }

  /** Compiles with the sandbox; returns the class or the problems. */
  def compile(String source) {
    def loader = new ScriptLoader(Worker.classLoader, conf)
    try {
      def cs = new GroovyCodeSource(source, "AnalysisScript${++scripts}.groovy", Sandbox.SCRIPT_CODEBASE)
      cs.cachable = false
      return [type: loader.compileOnce(cs), errors: []]
    } catch (MultipleCompilationErrorsException e) {
      return [type: null, errors: problems(e)]
    } catch (CompilationFailedException e) {
      return [type: null, errors: [[line: 0, column: 0, message: e.message]]]
    }
  }

  static List<Map> problems(MultipleCompilationErrorsException e) {
    def list = e.errorCollector.errors.collect { msg ->
      if (msg instanceof SyntaxErrorMessage) {
        SyntaxException c = ((SyntaxErrorMessage) msg).cause
        String text = (c.originalMessage ?: c.message).replaceAll(/\s*@ line \d+, column \d+\.?\s*$/, '')
        return [line: c.line, column: c.startColumn, message: text]
      }
      if (msg instanceof ExceptionMessage) {
        def c = ((ExceptionMessage) msg).cause
        return [line: 0, column: 0, message: (c?.message ?: c?.toString() ?: 'compile error').replaceAll(/^General error during \w+: /, '')]
      }
      if (msg instanceof SimpleMessage) return [line: 0, column: 0, message: ((SimpleMessage) msg).message]
      return [line: 0, column: 0, message: String.valueOf(msg)]
    }
    return list.unique().sort { a, b -> a.line <=> b.line ?: a.column <=> b.column }
  }

  void validate(Map req) {
    def r = compile(req.source as String)
    send([t: 'validated', id: req.id, errors: r.errors])
  }

  /** The run's input as the script sees it. */
  RunContext context(Map input, long outputCap) {
    long start = (input.start_us ?: 0L) as long
    Map f = (input.frames ?: [:]) as Map
    List ts = (f.ts ?: []) as List, ch = (f.ch ?: []) as List, ids = (f.id ?: []) as List, fl = (f.fl ?: []) as List, data = (f.data ?: []) as List
    List<Frame> frames = new ArrayList<Frame>(ts.size())
    for (int i = 0; i < ts.size(); i++) {
      long t = (ts[i] as Number).longValue()
      String hex = data[i] as String
      List<Integer> bytes = new ArrayList<Integer>(hex.length().intdiv(2))
      for (int k = 0; k + 1 < hex.length(); k += 2) bytes.add(Integer.parseInt(hex.substring(k, k + 2), 16))
      frames.add(new Frame((t - start) / 1e6d, t, (ch[i] as Number).intValue(), (ids[i] as Number).intValue(), (fl[i] as Number).intValue(),
        Collections.unmodifiableList(bytes)))
    }
    Map<String, Signal> signals = new LinkedHashMap<String, Signal>()
    for (def s : (input.signals ?: []) as List) {
      Map m = s as Map
      List t = (m.t ?: []) as List, v = (m.v ?: []) as List
      List<Double> times = new ArrayList<Double>(t.size()), values = new ArrayList<Double>(v.size())
      for (int i = 0; i < t.size(); i++) {
        times.add(((t[i] as Number).longValue() - start) / 1e6d)
        values.add(v[i] == null ? Double.NaN : (v[i] as Number).doubleValue())
      }
      def sig = new Signal(m.name as String, m.message as String, (m.channel ?: 0) as int, (m.unit ?: '') as String,
        Collections.unmodifiableList(times), Collections.unmodifiableList(values))
      signals.put("${sig.message}.${sig.name}".toString(), sig)
    }
    Map params = Collections.unmodifiableMap((input.params ?: [:]) as Map)
    Map window = Collections.unmodifiableMap((input.window ?: [:]) as Map)
    return new RunContext(Collections.unmodifiableList(frames), Collections.unmodifiableMap(signals), params, window, outputCap)
  }

  void run(Map req) {
    Map limits = (req.limits ?: [:]) as Map
    long cpuNs = ((limits.cpu_ms ?: 10000) as long) * 1_000_000L
    long wallMs = (limits.wall_ms ?: 30000) as long
    long outputCap = (limits.output_bytes ?: 1_000_000) as long

    def compiled = compile(req.source as String)
    if (compiled.type == null) {
      def first = compiled.errors[0]
      send([t: 'result', id: req.id, ok: false, fatal: false, report: null,
            error: [kind: 'compile', message: compiled.errors.collect { "line ${it.line}, column ${it.column}: ${it.message}" }.join('\n'),
                    line: first?.line ?: null]])
      return
    }
    RunContext ctx
    try {
      ctx = context((req.input ?: [:]) as Map, outputCap)
    } catch (OutOfMemoryError e) {
      send([t: 'result', id: req.id, ok: false, fatal: true, report: null, error: [kind: 'memory', message: 'the collected data does not fit in the heap', line: null]])
      halt()
    }
    AnalysisScript script = (AnalysisScript) ((Class) compiled.type).newInstance()
    script.attach(ctx)
    Throwable[] failure = new Throwable[1]
    def thread = new Thread(null, { ->
      try {
        script.run()
      } catch (Throwable t) {
        failure[0] = t
      }
    } as Runnable, "analysis-${req.id}", 16L * 1024 * 1024)
    thread.daemon = true
    def mx = ManagementFactory.threadMXBean
    MetaWatch.changed = false
    long began = System.nanoTime()
    thread.start()
    String broken = null
    while (thread.alive) {
      thread.join(20)
      if (!thread.alive) break
      long cpu = mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(thread.id) : -1L
      if (cpu > cpuNs) { broken = 'cpu'; break }
      if ((System.nanoTime() - began) / 1_000_000L > wallMs) { broken = 'wall'; break }
    }
    if (broken != null) {
      def msg = broken == 'cpu' ? "CPU time limit of ${cpuNs.intdiv(1_000_000L)} ms reached" : "wall time limit of ${wallMs} ms reached"
      send([t: 'result', id: req.id, ok: false, fatal: true, report: safeReport(ctx), error: [kind: broken, message: msg.toString(), line: null]])
      halt()
    }
    Throwable t = failure[0]
    if (t == null && ctx.overCap) t = new OutputLimitError("output over ${outputCap} bytes")
    if (MetaWatch.changed) {
      // A meta-class changed during the run: whatever did it, this JVM is not used again.
      send([t: 'result', id: req.id, ok: false, fatal: true, report: null,
            error: [kind: 'forbidden', message: 'changing a meta-class is not allowed', line: null]])
      halt()
    }
    if (t == null) {
      send([t: 'result', id: req.id, ok: true, report: ctx.report()])
      return
    }
    if (t instanceof OutOfMemoryError) {
      send([t: 'result', id: req.id, ok: false, fatal: true, report: null, error: [kind: 'memory', message: "heap limit reached (${Failure.describe(t)})".toString(), line: Failure.scriptLine(t)]])
      halt()
    }
    if (t instanceof OutputLimitError) {
      send([t: 'result', id: req.id, ok: false, fatal: true, report: null, error: [kind: 'output', message: "output over ${outputCap} bytes".toString(), line: Failure.scriptLine(t)]])
      halt()
    }
    def kind = t instanceof StackOverflowError ? 'stack' : 'script'
    String message = t instanceof StackOverflowError ? 'stack overflow (endless recursion?)' : Failure.describe(t)
    if (t instanceof SecurityException && Failure.trusted(t.getClass())) kind = 'forbidden'
    send([t: 'result', id: req.id, ok: false, fatal: t instanceof StackOverflowError, report: safeReport(ctx), error: [kind: kind, message: message, line: Failure.scriptLine(t)]])
    if (t instanceof StackOverflowError) halt()
  }

  /** What the script reported so far, unless that is what broke the cap. */
  static Map safeReport(RunContext ctx) {
    return ctx.overCap ? null : ctx.report()
  }


  static void halt() {
    System.err.flush()
    Runtime.runtime.halt(3)
  }

  void serve(BufferedReader input) {
    String line
    while ((line = input.readLine()) != null) {
      if (!line.trim()) continue
      Map req
      try {
        req = json.parseText(line) as Map
      } catch (Exception e) {
        send([t: 'error', message: "unreadable request: ${e.message}".toString()])
        continue
      }
      try {
        if (req.t == 'validate') validate(req)
        else if (req.t == 'run') run(req)
        else if (req.t == 'ping') send([t: 'pong', id: req.id])
        else send([t: 'error', id: req.id, message: "unknown request ${req.t}".toString()])
      } catch (OutOfMemoryError e) {
        send([t: 'result', id: req.id, ok: false, fatal: true, report: null, error: [kind: 'memory', message: 'heap limit reached', line: null]])
        halt()
      } catch (Throwable e) {
        send([t: 'result', id: req.id, ok: false, fatal: true, report: null, error: [kind: 'worker', message: Failure.describe(e), line: null]])
        halt()
      }
    }
  }
}

// Protocol on the real stdout; stray output (the JVM's warnings, a script's System.out) on stderr.
def protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, 'UTF-8')
System.out = System.err
def input = new BufferedReader(new InputStreamReader(System.in, 'UTF-8'))

boolean guard = false
if (System.getProperty('loggerhead.guard') != 'off') {
  try {
    Policy.policy = new SandboxPolicy()
    System.securityManager = new SandboxSecurityManager()
    guard = true
  } catch (Throwable e) {
    System.err.println("no run-time guard: ${e}")
  }
}
def worker = new Worker(protocol, guard)
GroovySystem.metaClassRegistry.addMetaClassRegistryChangeEventListener(new MetaWatch())
// Warm up the compiler and the runtime before saying ready.
worker.compile('def x = [1, 2, 3].collect { it * 2 }.sum(); log(x)')
worker.send([t: 'ready', groovy: GroovySystem.version, java: System.getProperty('java.version'), guard: guard])
worker.serve(input)
