// Runs dbg's Gradle init script against stand-ins for the Gradle objects
// it uses, as Gradle's documentation describes them: args[0] is the
// script, args[1] the dbg.jdwp property ("" for none).
def script = new File(args[0])
def jdwp = args.length > 1 && args[1] ? args[1] : null
def registered = [:]
def testTask = new Expando(jvmArgsSeen: [], upToDate: null, logging: new Expando(eventsSeen: []))
testTask.jvmArgs = { String a -> testTask.jvmArgsSeen << a }
testTask.outputs = new Expando(upToDateWhen: { Closure c -> testTask.upToDate = c() })
testTask.testLogging = { Closure c -> c.delegate = testTask.logging; c.resolveStrategy = Closure.DELEGATE_FIRST; c() }
testTask.logging.events = { String e -> testTask.logging.eventsSeen << e }
def files = [new File('/p/build/classes/java/test'), new File('/r/junit-platform-engine-1.14.1.jar')]
def project = new Expando()
project.plugins = new Expando(withId: { String id, Closure c -> if (id == 'java') { c.delegate = project; c.resolveStrategy = Closure.DELEGATE_FIRST; c() } })
project.tasks = new Expando(
    register: { String name, Closure c -> registered[name] = c },
    withType: { cls -> new Expando(configureEach: { Closure c -> c.delegate = testTask; c.resolveStrategy = Closure.DELEGATE_FIRST; c() }) })
project.sourceSets = new Expando(test: new Expando(
    runtimeClasspath: new Expando(files: files as Set, asPath: files*.path.join(':')),
    output: new Expando(classesDirs: new Expando(asPath: '/p/build/classes/java/test'))))
def coordinates = []
project.dependencies = new Expando(create: { String notation -> coordinates << notation; notation })
project.configurations = new Expando(detachedConfiguration: { dep -> new Expando(transitive: true, singleFile: new File('/r/' + dep.tokenize(':')[1] + '-' + dep.tokenize(':')[2] + '.jar')) })
def gradleObject = new Expando(startParameter: new Expando(projectProperties: jdwp ? ['dbg.jdwp': jdwp] : [:]))
def binding = new Binding([gradle: gradleObject, Test: 'Test',
    rootProject: { Closure c -> c.delegate = project; c.resolveStrategy = Closure.DELEGATE_FIRST; c() },
    allprojects: { Closure c -> c.delegate = project; c.resolveStrategy = Closure.DELEGATE_FIRST; c() }])
new GroovyShell(binding).evaluate(script)
def task = new Expando(project: project, dependsOnSeen: [], actions: [])
task.dependsOn = { String t -> task.dependsOnSeen << t }
task.doLast = { Closure c -> task.actions << c }
def configure = registered['dbgTestClasspath']
configure.delegate = task
configure.resolveStrategy = Closure.DELEGATE_FIRST
configure()
task.actions.each { it.delegate = task; it.resolveStrategy = Closure.DELEGATE_FIRST; it() }
println 'harness-dependsOn=' + task.dependsOnSeen.join(',')
println 'harness-coordinates=' + coordinates.join(',')
println 'harness-jvmArgs=' + testTask.jvmArgsSeen.join(',')
println 'harness-upToDate=' + testTask.upToDate
println 'harness-forks=' + testTask.maxParallelForks + ',' + testTask.forkEvery
println 'harness-streams=' + testTask.logging.showStandardStreams
