package example.catalog;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A visit counter kept in the HTTP session (in Redis, through Spring Session). */
@RestController
public class Visits {

  /** Counts this visit in the session (made when there is none) and answers the count. */
  @GetMapping("/visits")
  String visit(HttpSession session) {
    Integer visits = (Integer) session.getAttribute("visits");
    int count = visits == null ? 1 : visits + 1;
    session.setAttribute("visits", count);
    return Integer.toString(count);
  }

  /** Ends the request's session; 404 without one. */
  @DeleteMapping("/visits")
  ResponseEntity<Void> forget(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    if (session == null) {
      return ResponseEntity.notFound().build();
    }
    session.invalidate();
    return ResponseEntity.ok().build();
  }
}
