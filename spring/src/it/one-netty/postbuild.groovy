// One Netty line and one gRPC line in what `mvn dependency:list` resolves for a project that
// depends on the driver alone, for one that depends on the starter alone, and for one that imports
// jumpgate-bom: the same in all three; and netty-tcnative-classes at that Netty line's version.
def failures = []
def seen = [:].withDefault { [] as Set }
['driver-only', 'starter-only', 'bom-import'].each { project ->
  def listing = new File(basedir, project + '/dependencies.txt')
  if (!listing.isFile()) {
    throw new AssertionError(project + ': no ' + listing + ' (did dependency:list run?)')
  }
  // "   io.netty:netty-common:jar:4.2.19.Final:compile -- module io.netty.common"
  def artifacts = listing.readLines()
      .collect { it.trim() }
      .findAll { it ==~ /^[\w.-]+:[\w.-]+:.*/ }
      .collect { line ->
        def parts = line.split(' ')[0].split(':')
        [group: parts[0], artifact: parts[1], version: parts[parts.length - 2]]
      }
  def lines = [
      'Netty': artifacts.findAll {
        it.group == 'io.netty' && !it.artifact.startsWith('netty-tcnative')
      },
      'gRPC': artifacts.findAll { it.group == 'io.grpc' }]
  lines.each { name, found ->
    def versions = found.groupBy { it.version }
    println project + ': ' + name + ' ' + versions.collect { version, list ->
      version + ' (' + list*.artifact.join(', ') + ')'
    }.join('; ')
    if (found.isEmpty()) {
      failures << project + ': no ' + name + ' artifact at all; the listing changed its format?'
    } else if (versions.size() != 1) {
      failures << project + ': ' + versions.size() + ' ' + name + ' versions: ' + versions.keySet()
    }
    seen[name].addAll(versions.keySet())
  }
}
// netty-tcnative-classes: the version the resolved Netty line's own build names (tcnative.version
// in its netty-parent POM), not the one an older line's user (vert.x core, under jetcd) asks for.
def nettyVersions = seen['Netty']
if (nettyVersions.size() == 1) {
  def nettyVersion = nettyVersions.iterator().next()
  def parentPom = new File(localRepositoryPath,
      'io/netty/netty-parent/' + nettyVersion + '/netty-parent-' + nettyVersion + '.pom')
  if (!parentPom.isFile()) {
    failures << 'no ' + parentPom + ' to read the tcnative version of Netty ' + nettyVersion
  } else {
    // the top-level <properties>; a profile may name a snapshot
    def text = parentPom.text.replaceAll(/(?s)<profiles>.*?<\/profiles>/, '')
    def match = text =~ /<tcnative\.version>([^<]+)<\/tcnative\.version>/
    def expected = match.find() ? match.group(1) : null
    ['driver-only', 'starter-only', 'bom-import'].each { project ->
      def tcnative = new File(basedir, project + '/dependencies.txt').readLines()
          .collect { it.trim() }
          .findAll { it.startsWith('io.netty:netty-tcnative-classes:') }
          .collect { it.split(' ')[0].split(':') }
          .collect { it[it.length - 2] } as Set
      println project + ': netty-tcnative-classes ' + tcnative + ' (Netty ' + nettyVersion +
          ' names ' + expected + ')'
      if (tcnative != [expected] as Set) {
        failures << project + ': netty-tcnative-classes ' + tcnative + ', not ' + expected +
            ', the version of Netty ' + nettyVersion
      }
    }
  }
}
seen.each { name, versions ->
  if (versions.size() != 1) {
    failures << 'the projects resolve ' + name + ' ' + versions + ', not one version'
  }
}
if (!failures.isEmpty()) {
  throw new AssertionError(failures.join('\n'))
}
return true
