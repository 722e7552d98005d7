// Placeholder route tree of the staff side; the admin-remote feature work replaces the pages.
import { Route, Routes } from 'react-router-dom';

export default function AdminRoutes() {
  return (
    <Routes>
      <Route path="login" element={<h1>Staff login</h1>} />
      <Route path="register" element={<h1>Register</h1>} />
      <Route path="secured/*" element={<h1>Assessment Dashboard</h1>} />
    </Routes>
  );
}
