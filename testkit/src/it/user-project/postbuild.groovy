// The test ran (a surefire that finds no JUnit 5 test passes too): one test, none failed or skipped.
import javax.xml.parsers.DocumentBuilderFactory

def report = new File(basedir, 'target/surefire-reports/TEST-example.ThousandKeysTest.xml')
if (!report.isFile()) {
  throw new AssertionError('no ' + report + ': did surefire run ThousandKeysTest?')
}
def suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report).documentElement
def counts = ['tests', 'failures', 'errors', 'skipped'].collectEntries { [it, suite.getAttribute(it)] }
println 'ThousandKeysTest: ' + counts
if (counts != [tests: '1', failures: '0', errors: '0', skipped: '0']) {
  throw new AssertionError('ThousandKeysTest should run 1 test and pass, ran ' + counts)
}

// README.md shows this test: the code there must be this file's code.
def test = new File(basedir, 'src/test/java/example/ThousandKeysTest.java').text
def readme = new File(basedir, '../../../../README.md') // testkit/target/it/user-project
if (!readme.isFile()) {
  throw new AssertionError('no README.md at ' + readme.canonicalPath)
}
if (!readme.text.contains('```java\n' + test + '```')) {
  throw new AssertionError('README.md does not show ThousandKeysTest.java as it is: copy the file'
      + ' into its "Testing your application" section')
}
println 'README.md shows ThousandKeysTest.java as it is'
